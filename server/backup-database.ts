import fs from "node:fs";
import path from "node:path";
import type { Db, EmbeddedCopy } from "@/db/client";

/** The embedded database behind a handle's `db` (db/client.ts keeps it as drizzle's client), or null on PostgreSQL. */
export function embeddedClient(db: Db): EmbeddedCopy | null {
  const client = (db as { $client?: Partial<EmbeddedCopy> }).$client;
  return typeof client?.dumpDataDir === "function" ? (client as EmbeddedCopy) : null;
}

export class BackupTargetExistsError extends Error {}

/**
 * Writes a consistent copy of the embedded database to `outFile` (a gzipped tar of its data
 * directory, PGlite's `dumpDataDir`) under the database's transaction lock, so no transaction is
 * half done in the copy; requests wait at most for the dump itself. The file appears complete or
 * not at all.
 */
export async function backupDatabase(
  database: EmbeddedCopy,
  outFile: string,
): Promise<{ path: string; bytes: number }> {
  const target = path.resolve(outFile);
  if (fs.existsSync(target))
    throw new BackupTargetExistsError(`${target} exists; a backup never overwrites a file`);
  const dump = await database.dumpDataDir("gzip");
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
