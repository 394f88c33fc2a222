import { execFile, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { currentOwner, lockPath } from "./data-dir-lock";
import { migratedDataDir } from "@/test/migrated-data-dir";
import { nodeEntryArgs } from "@/test/node-entry";

// Issue 22: a server SIGKILLed as PID 1 (a container, any PID namespace) left a lock naming pid 1,
// which every later PID 1 took for a live holder, so no restart ever worked. The server here is
// server/test-command-server.ts: what server/main.ts does with DATA_DIR (locked, CLI commands
// served), without Next.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "bin", "kassa.mjs");

function canUnshare(): string | null {
  if (process.getuid?.() !== 0) return "PID namespaces need root here (unshare --pid)";
  try {
    execFileSync("unshare", ["--pid", "--fork", "--mount-proc", "--kill-child", "true"], { stdio: "ignore" });
    return null;
  } catch (error) {
    return `unshare --pid --fork --mount-proc --kill-child is unavailable: ${(error as Error).message}`;
  }
}
const noNamespaces = canUnshare();

let dataDir: string;
let env: NodeJS.ProcessEnv;
const children: ReturnType<typeof spawn>[] = [];
const previous = process.env.DATA_DIR;
beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-restart-"));
  // A migrated database in DATA_DIR/pglite, where the servers open it: a fresh directory's initdb
  // and migrations alone take seconds.
  migratedDataDir(dataDir);
  env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "error" };
  delete env.DATABASE_URL;
  // This process reads the same lock, as a CLI would.
  process.env.DATA_DIR = dataDir;
  resetEnv();
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  process.env.DATA_DIR = previous;
  resetEnv();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A server process, in a PID namespace of its own (as PID 1) or not. `--kill-child`: killing unshare kills it. */
function startServer(namespace: boolean) {
  const server = nodeEntryArgs("server/test-command-server.ts");
  const child = namespace
    ? spawn("unshare", ["--pid", "--fork", "--mount-proc", "--kill-child", process.execPath, ...server], { cwd: root, env })
    : spawn(process.execPath, server, { cwd: root, env });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin!.on("error", () => {});
  const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? String(code))));
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const ready = (async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`the server ended before it was ready: ${stderr}`);
    return JSON.parse(value as string) as { ready: boolean; business: string };
  })();
  ready.catch(() => {});
  return { child, ready, exited, stderr: () => stderr };
}

async function kassa(...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, [bin, ...args], { env, timeout: 120_000 });
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout + e.stderr };
  }
}

async function listsBusiness(...ids: string[]) {
  const listed = await kassa("business", "list", "--json");
  expect(listed.code, listed.stdout).toBe(0);
  expect((JSON.parse(listed.stdout) as { data: { id: string }[] }).data.map((b) => b.id)).toEqual(expect.arrayContaining(ids));
}

/** Until the kernel has closed the killed holder's beacon: the lock then names no live holder. */
async function lockReleased(withinMs: number) {
  const deadline = Date.now() + withinMs;
  while ((await currentOwner()) !== null) {
    if (Date.now() > deadline) throw new Error(`the killed server still holds the lock: ${fs.readFileSync(lockPath(), "utf8")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function killAndRestart(namespace: boolean) {
  const first = startServer(namespace);
  const { business } = await first.ready;
  const lock = JSON.parse(fs.readFileSync(lockPath(), "utf8")) as { pid: number; role: string };
  expect(lock.role).toBe("server");
  if (namespace) expect(lock.pid).toBe(1);

  // A second live server is refused; the CLI reaches the running one through its command socket.
  const second = startServer(namespace);
  expect(await second.exited).toBe("1");
  expect(second.stderr()).toMatch(/Kassa is already running on this data directory/);
  await listsBusiness(business);

  first.child.kill("SIGKILL");
  expect(await first.exited).toBe("SIGKILL");
  await lockReleased(60_000); // ends a hang only: a busy machine may reap the child late

  // The restart takes the lock without anyone deleting the file, and serves the CLI again.
  const restarted = startServer(namespace);
  const again = await restarted.ready;
  expect(again.ready).toBe(true);
  if (namespace) expect((JSON.parse(fs.readFileSync(lockPath(), "utf8")) as { pid: number }).pid).toBe(1);
  await listsBusiness(business, again.business);
}

// The lock guards the embedded database only; the PostgreSQL pass has nothing to add.
describe.skipIf(process.env.DATABASE_URL)("restart after kill -9", () => {
  it("on the host: a second live server is refused; after SIGKILL the restart takes the lock", async () => {
    await killAndRestart(false);
  }, 480_000);

  it.skipIf(noNamespaces)(
    `as PID 1 of a PID namespace: the same, though every server there has pid 1${noNamespaces ? ` (skipped: ${noNamespaces})` : ""}`,
    async () => {
      await killAndRestart(true);
    },
    480_000,
  );
});
