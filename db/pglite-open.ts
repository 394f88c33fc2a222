import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/**
 * Postgres's shared buffers inside PGlite. Its default, 128 MB, is allocated and touched at start
 * (WASM memory, resident from the first second) while the operating system's page cache already
 * holds the data directory's files: 16 MB keeps an embedded instance about 130 MB smaller at rest
 * (decision 0076, "PGlite's shared buffers").
 */
export const pgliteSharedBuffers = "16MB";

/**
 * PGlite as Kassa opens it, in the caller's thread or on the database's own (./pglite-thread.ts):
 * dataDir undefined means in memory; pg_trgm for the trigram indexes of the payments search
 * (migration 0026, decision 0082); the session in UTC.
 */
export async function openPglite({ dataDir, loadDataDir }: { dataDir?: string; loadDataDir?: Blob }): Promise<PGlite> {
  // One options object: PGlite ignores `loadDataDir` when the first argument is an undefined dataDir.
  const pglite = new PGlite({
    dataDir,
    loadDataDir,
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${pgliteSharedBuffers}`],
  });
  await pglite.waitReady;
  await pglite.exec("SET TIME ZONE 'UTC'");
  return pglite;
}

/**
 * A consistent copy of the data directory (PGlite's dumpDataDir), for backups. A checkpoint first
 * keeps the WAL to replay on restore short; it cannot run under the transaction lock (every
 * statement takes it too), and what commits in between is in the WAL the copy holds. The copy is
 * taken under that lock, so no transaction is half done in it.
 */
export async function copyDataDir(pglite: PGlite, compression: "gzip" | "none"): Promise<Blob> {
  await pglite.exec("CHECKPOINT");
  return pglite._runExclusiveTransaction(() => pglite.dumpDataDir(compression));
}
