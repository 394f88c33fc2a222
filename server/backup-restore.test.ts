import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { promisify } from "node:util";
import { asc } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "@/db/client";
import { businesses, ledgerAccounts } from "@/db/schema";
import { installDatabase } from "@/lib/db";
import { resetEnv } from "@/lib/env";
import {
  helperPay,
  newSession,
  paymentsBusiness,
  withSandboxProviders,
} from "@/lib/payments/testing/payment-fixtures";
import { setTestHandle, testHandle } from "@/test/helpers";
import { openPreparedDatabase } from "./embedded";
import { runCliCommand } from "./run-cli-command";
import { migratedDataDir } from "@/test/migrated-data-dir";
import { nodeEntryArgs } from "@/test/node-entry";

// `kassa backup` through a running server under load (and beside an open transaction), then
// `kassa restore` into a fresh DATA_DIR: the copy is consistent and holds the same money. Always
// the embedded database: that is what these commands are for.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "bin", "kassa.mjs");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-backup-test-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const providers = withSandboxProviders();

/** A DATA_DIR whose secrets open with its own encryption.key (no ENCRYPTION_KEY), as out of the box. */
function environment(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: "error",
    RATE_LIMIT_SESSION_SECRET: "1000000",
    ...extra,
  };
  delete env.DATABASE_URL;
  delete env.ENCRYPTION_KEY;
  if (extra.DATABASE_URL) env.DATABASE_URL = extra.DATABASE_URL;
  return env;
}

const freshDir = (name: string) => path.join(scratch, name);

async function kassa(env: NodeJS.ProcessEnv, args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      env,
      cwd: root,
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * The same command in this process, under `env`'s DATA_DIR, key and DATABASE_URL (server/cli.ts
 * only prints this output and exits with its code): for the table of refusals, without a process's
 * start each (each costs seconds of CPU); one refusal still goes through a process of its own.
 */
async function kassaHere(env: NodeJS.ProcessEnv, args: string[]) {
  const names = ["DATA_DIR", "ENCRYPTION_KEY", "DATABASE_URL"] as const;
  const saved = names.map((name) => process.env[name]);
  const set = (name: string, value: string | undefined) =>
    value === undefined ? delete process.env[name] : (process.env[name] = value);
  names.forEach((name) => set(name, env[name]));
  resetEnv();
  try {
    const { stdout, stderr, exitCode } = await runCliCommand(args);
    return { code: exitCode, stdout, stderr };
  } finally {
    names.forEach((name, i) => set(name, saved[i]));
    resetEnv();
  }
}

type Server = {
  child: ChildProcessWithoutNullStreams;
  next: () => Promise<Record<string, unknown>>;
  send: (line: string) => void;
};

function startServer(env: NodeJS.ProcessEnv): Server {
  const child = spawn(process.execPath, nodeEntryArgs("server/test-command-server.ts"), {
    cwd: root,
    env,
  });
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

/** Sandbox card payments written into `dataDir`'s embedded database, in this process, before any server. */
async function paymentsIn(dataDir: string) {
  // This test process seals secrets with its ENCRYPTION_KEY: give the data directory that key.
  fs.mkdirSync(dataDir, { recursive: true });
  migratedDataDir(dataDir);
  fs.writeFileSync(path.join(dataDir, "encryption.key"), process.env.ENCRYPTION_KEY!, { mode: 0o600 });
  const handle = await openPreparedDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
  const previous = setTestHandle(handle)!;
  installDatabase(handle);
  try {
    providers.current();
    const biz = await paymentsBusiness();
    for (const ref of ["A-1", "A-2", "A-3"]) {
      const { session_id } = await newSession(biz, { metadata: { ref } });
      const paid = await helperPay(biz, session_id);
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    }
    return biz.business.id;
  } finally {
    setTestHandle(previous);
    installDatabase(previous);
    await handle.close();
  }
}

/** Every ledger account of a data directory's database (no process has it open). */
async function accountsIn(dataDir: string) {
  const handle: DatabaseHandle = await openDatabase({
    kind: "pglite",
    dataDir: path.join(dataDir, "pglite"),
  });
  try {
    const accounts = await handle.db.select().from(ledgerAccounts).orderBy(asc(ledgerAccounts.id));
    const names = await handle.db.select({ id: businesses.id, name: businesses.name }).from(businesses);
    return { accounts, names: names.map((b) => b.name) };
  } finally {
    await handle.close();
  }
}

// Embedded only, whatever DATABASE_URL says: the PostgreSQL pass would run the same processes again.
describe.skipIf(!!process.env.DATABASE_URL)("kassa backup and restore (embedded database)", () => {
  it("backs up through the running server under load, and the restore holds the same balances", async () => {
    expect(testHandle()).toBeTruthy();
    const original = freshDir("original");
    const paidBusiness = await paymentsIn(original);

    const env = environment(original);
    const server = startServer(env);
    try {
      expect(await server.next()).toMatchObject({ ready: true });
      server.send("load");
      server.send("hold 3000");
      const holding = await server.next();
      expect(holding).toMatchObject({ holding: expect.stringMatching(/^phantom-/) });
      // A relative --out is the CLI's working directory's, though the server writes the file.
      const relative = path.relative(root, path.join(scratch, "nightly.kassa-backup"));
      const backup = await kassa(env, ["backup", "--out", relative, "--json"]);
      expect(backup.code, backup.stdout + backup.stderr).toBe(0);
      const written = JSON.parse(backup.stdout) as { out: string; bytes: number; encryption_key: string };
      expect(written.out).toBe(path.join(scratch, "nightly.kassa-backup"));
      expect(fs.statSync(written.out).size).toBe(written.bytes);
      expect(written.encryption_key).toBe(path.join(original, "encryption.key"));

      // While that server runs, nothing restores into its DATA_DIR, and backups never overwrite.
      const busy = await kassa(env, ["restore", "--from", written.out, "--json"]);
      expect(busy.code).toBe(1);
      expect(JSON.parse(busy.stdout).error).toMatch(/a Kassa server \(pid \d+\) is running on/);
      const again = await kassa(env, ["backup", "--out", written.out]);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain("exists; a backup never overwrites a file");

      expect(await server.next()).toEqual({ rolledBack: holding.holding });
      server.send("stop");
      const report = (await server.next()) as { credits: number };
      expect(report.credits).toBeGreaterThan(0);
      await new Promise((resolve) => server.child.once("exit", resolve));
    } finally {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
    }

    const copy = freshDir("restored");
    const backupFile = path.join(scratch, "nightly.kassa-backup");
    const restored = await kassa(environment(copy), [
      "restore",
      "--from",
      backupFile,
      "--key-file",
      path.join(original, "encryption.key"),
      "--json",
    ]);
    expect(restored.code, restored.stdout + restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ data_dir: copy, ledger_ok: true, businesses: 2 });
    const verified = await kassa(environment(copy), ["ledger", "verify", "--json"]);
    expect(verified.code, verified.stdout).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, problems: [] });
    // The restored database opens its secrets: the demo login and API keys decrypt.
    const listed = await kassa(environment(copy), ["business", "list", "--json"]);
    expect(listed.code, listed.stderr).toBe(0);

    const before = await accountsIn(original);
    const after = await accountsIn(copy);
    // The paid business saw no writes after its payments: its accounts are identical.
    const paid = (rows: typeof before.accounts) => rows.filter((a) => a.businessId === paidBusiness);
    expect(paid(after.accounts).length).toBeGreaterThan(0);
    expect(paid(after.accounts)).toEqual(paid(before.accounts));
    expect(paid(after.accounts).some((a) => a.balance > 0)).toBe(true);
    // The load kept crediting after the copy; the phantom business was never committed.
    expect(after.names).not.toContain(expect.stringMatching(/^phantom-/));
    expect(after.names).toContain("Load shop");
  }, 600_000); // a bound on hangs: seven processes start in turn, minutes on a busy machine

  it("refuses what would lose or mix data, leaving the target as it was", async () => {
    const source = freshDir("refusals-source");
    await paymentsIn(source);
    const env = environment(source);
    const backupFile = path.join(scratch, "refusals.kassa-backup");
    const made = await kassa(env, ["backup", "--out", backupFile, "--json"]);
    expect(made.code, made.stdout + made.stderr).toBe(0);

    // Into a DATA_DIR that already has a database: through a process of its own, as a script runs it;
    // the other refusals run in this process (kassaHere).
    const occupied = await kassa(env, ["restore", "--from", backupFile, "--json"]);
    expect(occupied.code).toBe(1);
    expect(JSON.parse(occupied.stdout).error).toContain("already holds a database");

    // Without the key that opens its secrets, or with another key.
    const keyless = freshDir("keyless");
    const noKey = await kassaHere(environment(keyless), ["restore", "--from", backupFile]);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain("no encryption key");
    expect(fs.existsSync(path.join(keyless, "pglite"))).toBe(false);
    const otherKey = path.join(scratch, "other.key");
    fs.writeFileSync(otherKey, "1".repeat(64));
    const wrong = freshDir("wrong-key");
    const wrongKey = await kassaHere(environment(wrong), [
      "restore",
      "--from",
      backupFile,
      "--key-file",
      otherKey,
    ]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain("the encryption key does not open this backup's secrets");
    expect(fs.existsSync(path.join(wrong, "pglite"))).toBe(false);
    expect(fs.existsSync(path.join(wrong, "encryption.key"))).toBe(false);

    // A file that is not a backup.
    const junk = path.join(scratch, "junk");
    fs.writeFileSync(junk, "not a backup");
    const notBackup = await kassaHere(environment(freshDir("junk-target")), [
      "restore",
      "--from",
      junk,
      "--json",
    ]);
    expect(notBackup.code).toBe(1);
    expect(JSON.parse(notBackup.stdout).error).toContain("is not a kassa backup");

    // PostgreSQL: its own tools, and no connection is even tried.
    const pg = environment(freshDir("pg"), { DATABASE_URL: "postgres://kassa@127.0.0.1:9/none" });
    const pgBackup = await kassaHere(pg, ["backup", "--out", path.join(scratch, "pg.dump"), "--json"]);
    expect(pgBackup.code).toBe(1);
    expect(JSON.parse(pgBackup.stdout).error).toContain("pg_dump -Fc");
    const pgRestore = await kassaHere(pg, ["restore", "--from", backupFile]);
    expect(pgRestore.code).toBe(1);
    expect(pgRestore.stderr).toContain("pg_restore --clean --if-exists");
    expect(fs.existsSync(path.join(scratch, "pg.dump"))).toBe(false);

    // Missing options are usage errors.
    const usage = await kassaHere(env, ["restore", "--json"]);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout).error).toContain("--from is required");
  }, 600_000); // a bound on hangs: two processes start in turn, minutes on a busy machine
});
