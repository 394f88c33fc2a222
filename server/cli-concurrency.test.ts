import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { testHandle } from "@/test/helpers";
import { migratedDataDir } from "@/test/migrated-data-dir";
import { nodeEntryArgs } from "@/test/node-entry";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "bin", "kassa.mjs");

/** The environment of the server and CLI processes: a fresh DATA_DIR, or this test file's Postgres database. */
function environment(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "error", RATE_LIMIT_SESSION_SECRET: "1000000" };
  delete env.DATABASE_URL;
  // test/database.ts gives this file's handle the URL of its own database.
  if (process.env.DATABASE_URL) env.DATABASE_URL = (testHandle() as DatabaseHandle & { url: string }).url;
  return env;
}

type Server = { child: ChildProcessWithoutNullStreams; next: () => Promise<Record<string, unknown>>; send: (line: string) => void };

function startServer(env: NodeJS.ProcessEnv): Server {
  const child = spawn(process.execPath, nodeEntryArgs("server/test-command-server.ts"), { cwd: root, env });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    next: async () => {
      const { value, done } = await lines.next();
      if (done) throw new Error(`test server ended: ${stderr}`);
      return JSON.parse(value as string) as Record<string, unknown>;
    },
    send: (line) => child.stdin.write(line + "\n"),
  };
}

async function kassa(env: NodeJS.ProcessEnv, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env, timeout: 120_000 });
    return { code: 0, stdout, stderr, args };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr, args };
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serverOnFreshDataDir() {
  const dataDir = migratedDataDir(fs.mkdtempSync(path.join(os.tmpdir(), "kassa-cli-conc-")));
  const env = environment(dataDir);
  const server = startServer(env);
  cleanups.push(
    () => fs.rmSync(dataDir, { recursive: true, force: true }),
    () => void (server.child.exitCode === null && server.child.kill("SIGKILL")),
  );
  const ready = await server.next();
  expect(ready).toMatchObject({ ready: true, business: expect.stringMatching(/^biz_/) });
  return { dataDir, env, server, business: ready.business as string };
}

async function stopServer(server: Server) {
  server.send("stop");
  const report = await server.next();
  await new Promise((resolve) => server.child.once("exit", resolve));
  return report as { statuses: Record<string, number>; credits: number };
}

const listedIds = (stdout: string) => (JSON.parse(stdout) as { data: { id: string; name: string }[] }).data;

describe("CLI commands beside a running server", () => {
  it("20 concurrent commands under API and ledger load all succeed, atomically and in some order", async () => {
    const { env, server, business } = await serverOnFreshDataDir();
    server.send("load");
    const commands: string[][] = [];
    for (let i = 0; i < 6; i++) commands.push(["business", "create", "--name", `Concurrent ${i}`, "--json"]);
    for (let i = 0; i < 5; i++) commands.push(["business", "list", "--json"]);
    for (let i = 0; i < 5; i++) commands.push(["payout-balance", "transfer", "--business", business, "--amount", "100", "--json"]);
    for (let i = 0; i < 4; i++) commands.push(["ledger", "verify", "--json"]);
    const results = await Promise.all(commands.map((args) => kassa(env, ...args)));
    const report = await stopServer(server);

    for (const r of results) {
      expect(r.code, `${r.args.join(" ")}: ${r.stdout}${r.stderr}`).toBe(0);
      expect(r.stdout.trim().split("\n")).toHaveLength(1);
    }
    // Each transfer saw the ones before it: payout balances 100…500, one each.
    const payouts = results
      .filter((r) => r.args[0] === "payout-balance")
      .map((r) => (JSON.parse(r.stdout) as { payout_balance: number }).payout_balance)
      .sort((a, b) => a - b);
    expect(payouts).toEqual([100, 200, 300, 400, 500]);
    for (const r of results.filter((r) => r.args[0] === "ledger")) expect(JSON.parse(r.stdout)).toMatchObject({ ok: true });
    // The load really ran alongside, and never failed.
    expect(report.statuses["201"]).toBeGreaterThan(0);
    expect(Object.keys(report.statuses)).toEqual(["201"]);
    expect(report.credits).toBeGreaterThan(0);

    // With the server gone, the CLI opens the data directory itself and finds everything.
    const created = results
      .filter((r) => r.args[1] === "create")
      .map((r) => (JSON.parse(r.stdout) as { id: string }).id);
    const listed = await kassa(env, "business", "list", "--json");
    expect(listed.code, listed.stderr).toBe(0);
    expect(listedIds(listed.stdout).map((b) => b.id)).toEqual(expect.arrayContaining([business, ...created]));
    const verified = await kassa(env, "ledger", "verify", "--json");
    expect(verified.code, verified.stdout).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, problems: [] });
  }, 240_000);

  it("a server transaction and CLI commands never see or end each other's work", async () => {
    const { env, server } = await serverOnFreshDataDir();
    server.send("hold 4000");
    const holding = await server.next();
    expect(holding).toMatchObject({ holding: expect.stringMatching(/^phantom-/) });
    const [list, create] = await Promise.all([
      kassa(env, "business", "list", "--json"),
      kassa(env, "business", "create", "--name", "Beside the phantom", "--json"),
    ]);
    expect(await server.next()).toEqual({ rolledBack: holding.holding });
    expect(list.code, list.stderr).toBe(0);
    expect(listedIds(list.stdout).map((b) => b.name)).not.toContain(holding.holding);
    expect(create.code, create.stdout + create.stderr).toBe(0);
    const createdId = (JSON.parse(create.stdout) as { id: string }).id;

    // The server's rollback did not take the CLI's business with it, nor did the CLI commit the phantom.
    const after = await kassa(env, "business", "list", "--json");
    expect(after.code, after.stderr).toBe(0);
    const ids = listedIds(after.stdout).map((b) => b.id);
    expect(ids).toContain(createdId);
    expect(ids).not.toContain(holding.id);
    await stopServer(server);
  }, 240_000);

  it.skipIf(!!process.env.DATABASE_URL)(
    "a client that hangs up mid-command leaves the server running and the command complete",
    async () => {
      const { dataDir, env, server } = await serverOnFreshDataDir();
      const { socket } = JSON.parse(fs.readFileSync(path.join(dataDir, "pglite.lock"), "utf8")) as { socket: string };
      expect((fs.statSync(socket).mode & 0o777).toString(8)).toBe("600");
      expect((fs.statSync(path.dirname(socket)).mode & 0o777).toString(8)).toBe("700");
      await new Promise<void>((resolve, reject) => {
        const client = net.createConnection({ path: socket }, () => {
          client.write(JSON.stringify({ argv: ["business", "create", "--name", "Hung up", "--json"] }) + "\n", () => {
            client.destroy();
            resolve();
          });
        });
        client.on("error", reject);
      });
      // The abandoned command still commits: a later one sees its business.
      let names: string[] = [];
      for (let i = 0; i < 5 && !names.includes("Hung up"); i++) {
        const listed = await kassa(env, "business", "list", "--json");
        expect(listed.code, listed.stderr).toBe(0);
        names = listedIds(listed.stdout).map((b) => b.name);
      }
      expect(names).toContain("Hung up");
      expect(server.child.exitCode).toBeNull();
      await stopServer(server);
    },
    240_000,
  );
});
