import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { migrationsFolder, openDatabase, queryRows, sql } from "@/db/client";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
  entries: { tag: string }[];
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** `npm run db:migrate` as a separate process, on its own embedded database in DATA_DIR. */
async function migrate(dataDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "error" };
  delete env.DATABASE_URL; // the script's own embedded database, whatever the test run uses
  try {
    const { stdout, stderr } = await run(path.join(root, "node_modules/.bin/tsx"), ["server/migrate.ts"], {
      cwd: root,
      env,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-migrate-"));
  dirs.push(dir);
  return dir;
}

// The script runs on its own embedded database whatever DATABASE_URL says: the PostgreSQL pass
// would only run the same processes again.
describe.skipIf(!!process.env.DATABASE_URL)("npm run db:migrate (server/migrate.ts)", () => {
  it("applies every migration to DATA_DIR's embedded database, then finds nothing left to do", async () => {
    const dataDir = tempDataDir();
    const first = await migrate(dataDir);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`embedded database in ${path.join(dataDir, "pglite")}`);
    expect(first.stdout).toContain(
      `Applied ${journal.entries.length} migration(s): ${journal.entries.map((e) => e.tag).join(", ")}`,
    );

    const second = await migrate(dataDir);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("Already up to date.");

    const handle = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    try {
      const [row] = await queryRows<{ count: number }>(
        handle.db,
        sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
      );
      expect(row?.count).toBe(journal.entries.length);
      const methods = await queryRows<{ id: string }>(handle.db, sql`select id from payment_methods`);
      expect(methods.length).toBeGreaterThan(0);
    } finally {
      await handle.close();
    }
  }, 240_000);

  it("refuses to open the embedded database while a server owns it", async () => {
    const dataDir = tempDataDir();
    // A running server's lock on DATA_DIR: its pid (this live process) and its command socket.
    const socket = path.join(dataDir, "fake.sock");
    fs.writeFileSync(path.join(dataDir, "pglite.lock"), JSON.stringify({ pid: process.pid, role: "server", socket }));

    const result = await migrate(dataDir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`A Kassa server (pid ${process.pid}) is running on ${dataDir}`);
    expect(result.stderr).toContain("stop it first");
    expect(fs.existsSync(path.join(dataDir, "pglite"))).toBe(false);
  }, 240_000);
});
