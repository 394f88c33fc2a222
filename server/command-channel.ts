import fs from "node:fs";
import net from "node:net";
import type { Db } from "@/db/client";
import { log } from "@/lib/log";
import { describeError } from "./describe-error";
import type { CommandOutput } from "./run-command";
import { sleep } from "./data-dir-lock";

/** A request is one line of JSON, `{"argv": [...]}`; the answer one line, a CommandOutput. */
export type CommandRequest = { argv: string[] };

const maxRequestBytes = 1 << 20;

function parseRequest(line: string): string[] | null {
  try {
    const { argv } = JSON.parse(line) as Partial<CommandRequest>;
    return Array.isArray(argv) && argv.every((a) => typeof a === "string") ? argv : null;
  } catch {
    return null;
  }
}

async function answer(db: Db, line: string): Promise<CommandOutput> {
  const argv = parseRequest(line);
  if (!argv) return { stdout: "", stderr: "Malformed request on Kassa's command socket.\n", exitCode: 2 };
  try {
    // The commands (and what they use: two-factor's QR codes, the exports) load on the first one.
    const { runCommand } = await import("./run-command");
    return await runCommand(argv, db);
  } catch (error) {
    return { stdout: "", stderr: `Failed: ${describeError(error)}\n`, exitCode: 1 };
  }
}

/**
 * The running server executes CLI commands itself, with its own database handle (decision 0007):
 * on PGlite every transaction then takes the database's one transaction lock, so a command's
 * transaction and the server's never share a session. A command runs to its end even when its
 * client goes away; its answer is then dropped. Returns the function that stops listening and
 * waits for the commands still running.
 */
export async function serveCommands(db: Db, socketPath: string): Promise<() => Promise<void>> {
  const running = new Set<Promise<void>>();
  const server = net.createServer((connection) => {
    // A client gone mid-command (ECONNRESET, EPIPE) is not the server's failure.
    connection.on("error", () => {});
    connection.setEncoding("utf8");
    let received = "";
    const onData = (chunk: string) => {
      received += chunk;
      const end = received.indexOf("\n");
      if (end < 0) {
        if (received.length > maxRequestBytes) connection.destroy();
        return;
      }
      connection.off("data", onData);
      const work = answer(db, received.slice(0, end)).then((output) => {
        if (!connection.destroyed) connection.end(JSON.stringify(output) + "\n");
      });
      running.add(work);
      void work.finally(() => running.delete(work));
    };
    connection.on("data", onData);
  });
  server.on("error", (error) => log.error("command socket failed", { error }));

  fs.rmSync(socketPath, { force: true }); // a killed server's; the data-directory lock is ours
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ path: socketPath, backlog: 511 }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  fs.chmodSync(socketPath, 0o600);

  return async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.race([Promise.allSettled([...running]).then(() => closed), sleep(10_000)]);
    fs.rmSync(socketPath, { force: true });
  };
}
