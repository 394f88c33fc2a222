import { randomBytes } from "node:crypto";
import fs from "node:fs";
import postgres from "postgres";
import { openDatabase, type DatabaseHandle } from "@/db/client";
import { prepareDatabase } from "@/lib/prepare-database";

/** The server URL with another database name. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export const templateName = (runId: string) => `kassa_test_template_${runId}`;

/**
 * A fresh database for one test file: an in-memory PGlite loaded from the migrated snapshot the
 * global set-up dumped (or migrated here, without one), or (with DATABASE_URL) a new Postgres
 * database cloned from the template the global set-up migrated. Each file owns its data.
 */
export async function createTestDatabase(runId: string, pgliteSnapshot?: string): Promise<DatabaseHandle & { url?: string }> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    if (pgliteSnapshot) {
      return openDatabase({ kind: "pglite", loadDataDir: new Blob([fs.readFileSync(pgliteSnapshot)]) });
    }
    const handle = await openDatabase({ kind: "pglite" });
    await prepareDatabase(handle);
    return handle;
  }
  const name = `kassa_test_${runId}_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${templateName(runId)}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const handle = await openDatabase({ kind: "postgres", url, max: 20 });
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close();
      const cleanup = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        await cleanup.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}
