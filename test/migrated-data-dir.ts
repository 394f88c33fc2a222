import fs from "node:fs";
import path from "node:path";
import { inject } from "vitest";

/**
 * Makes `dataDir` (a DATA_DIR) hold a migrated embedded database, as the first start of a server
 * or command would leave it: a copy of the one the global set-up migrated (PGlite pass only).
 * A fresh directory's initdb and migrations cost each process that meets it several seconds of CPU;
 * tests of that first start itself (server/cli.test.ts, server/migrate.test.ts,
 * server/npm-start.test.ts) keep empty directories. With DATABASE_URL it does nothing: the
 * processes then initialise the directory themselves, as before.
 */
export function migratedDataDir(dataDir: string): string {
  const template = inject("pgliteDataDirTemplate");
  if (template) fs.cpSync(template, path.join(dataDir, "pglite"), { recursive: true });
  return dataDir;
}
