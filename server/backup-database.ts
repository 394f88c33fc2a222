import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { Db } from "@/db/client";

/** The embedded database behind a handle's `db` (drizzle keeps its client), or null on PostgreSQL. */
export function embeddedClient(db: Db): PGlite | null {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof PGlite ? client : null;
}

export class BackupTargetExistsError extends Error {}

/**
 * Writes a consistent copy of the embedded database to `outFile` (a gzipped tar of its data
 * directory, PGlite's `dumpDataDir`) under the database's transaction lock, so no transaction is
 * half done in the copy; requests wait at most for the dump itself. The file appears complete or
 * not at all.
 */
export async function backupDatabase(
  pglite: PGlite,
  outFile: string,
): Promise<{ path: string; bytes: number }> {
  const target = path.resolve(outFile);
  if (fs.existsSync(target))
    throw new BackupTargetExistsError(`${target} exists; a backup never overwrites a file`);
  // A checkpoint first keeps the WAL to replay on restore short; it cannot run under the lock
  // (every statement takes it too), and what commits in between is in the WAL the copy holds.
  await pglite.exec("CHECKPOINT");
  const dump = await pglite._runExclusiveTransaction(() => pglite.dumpDataDir("gzip"));
  const bytes = Buffer.from(await dump.arrayBuffer());
  const partial = `${target}.partial-${process.pid}`;
  fs.writeFileSync(partial, bytes, { mode: 0o600 });
  try {
    // link, not rename: a file created meanwhile at `target` is never replaced.
    fs.linkSync(partial, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      throw new BackupTargetExistsError(`${target} exists; a backup never overwrites a file`);
    throw error;
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return { path: target, bytes: bytes.length };
}
