import net from "node:net";
import type { CommandOutput } from "./run-command";

/** Nobody listens on the socket (yet, or any more): nothing was sent, so trying again is safe. */
export class ServerNotListening extends Error {}

const notListening = new Set(["ENOENT", "ECONNREFUSED", "EAGAIN"]);

/** Sends `argv` to the running server's command socket and returns what the command printed. */
export function requestCommand(socketPath: string, argv: string[]): Promise<CommandOutput> {
  return new Promise((resolve, reject) => {
    let connected = false;
    let received = "";
    const connection = net.createConnection({ path: socketPath }, () => {
      connected = true;
      connection.write(JSON.stringify({ argv }) + "\n");
    });
    connection.setEncoding("utf8");
    connection.on("data", (chunk: string) => (received += chunk));
    connection.on("error", (error: NodeJS.ErrnoException) => {
      if (!connected && notListening.has(error.code ?? "")) reject(new ServerNotListening(error.message));
      else reject(lost(error.message));
    });
    connection.on("end", () => {
      try {
        const output = JSON.parse(received) as CommandOutput;
        if (typeof output.exitCode !== "number") throw new Error("no exit code");
        resolve(output);
      } catch {
        reject(lost("the answer was cut short"));
      }
    });
  });
}

function lost(detail: string): Error {
  return new Error(
    `lost the connection to the Kassa server before its answer (${detail}); the command may have run: check with \`npx kassa business list\` or \`npx kassa ledger verify\``,
  );
}
