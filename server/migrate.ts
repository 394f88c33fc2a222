// npm run db:migrate: applies the committed migrations (db/migrations) to the configured database
// (DATA_DIR's embedded PGlite, or DATABASE_URL) and seeds the method catalogue, as every start does.
import fs from "node:fs";
import path from "node:path";
import { migrationsFolder, openDatabase, queryRows, sql, type Db } from "@/db/client";
import { dataDir, databaseOptions } from "@/lib/env";
import { prepareDatabase } from "@/lib/prepare-database";
import { pause, tryLock, type Lock } from "./data-dir-lock";

type Journal = { entries: { tag: string; when: number }[] };

/** `created_at` of each applied migration (drizzle keeps the journal's `when` there). */
async function appliedMigrations(db: Db): Promise<Set<number>> {
  const [table] = await queryRows<{ name: string | null }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations')::text as name`,
  );
  if (!table?.name) return new Set();
  const rows = await queryRows<{ created_at: string | number }>(
    db,
    sql`select created_at from drizzle.__drizzle_migrations`,
  );
  return new Set(rows.map((row) => Number(row.created_at)));
}

function describe(url: string): string {
  try {
    const u = new URL(url);
    return `PostgreSQL at ${u.host}${u.pathname}`; // never the password
  } catch {
    return "PostgreSQL (DATABASE_URL)";
  }
}

async function main(): Promise<number> {
  const options = databaseOptions();
  let where: string;
  let lock: Lock | undefined;
  if (options.kind === "pglite") {
    // One PGlite directory must never be opened by two processes (decision 0007).
    for (;;) {
      const attempt = await tryLock({ pid: process.pid, role: "cli" });
      if ("lock" in attempt) {
        lock = attempt.lock;
        break;
      }
      if (attempt.holder?.role === "server") {
        console.error(
          `A Kassa server (pid ${attempt.holder.pid}) is running on ${dataDir()} and owns its embedded database.\n` +
            "It applied the migrations when it started. To run them by hand, stop it first.",
        );
        return 1;
      }
      await pause(); // a CLI command holds it for a moment
    }
    where = `embedded database in ${options.dataDir}`;
  } else {
    where = describe(options.url);
  }

  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8"),
  ) as Journal;

  const handle = await openDatabase(options);
  try {
    const before = await appliedMigrations(handle.db);
    await prepareDatabase(handle);
    const after = await appliedMigrations(handle.db);
    const applied = journal.entries.filter((e) => after.has(e.when) && !before.has(e.when)).map((e) => e.tag);
    console.log(`Database: ${where}`);
    if (applied.length) console.log(`Applied ${applied.length} migration(s): ${applied.join(", ")}`);
    else console.log(`Already up to date.`);
    console.log(
      `${after.size} of ${journal.entries.length} migrations applied; payment method catalogue seeded.`,
    );
    return 0;
  } finally {
    await handle.close();
    lock?.release();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
