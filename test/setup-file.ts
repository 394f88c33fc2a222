import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { installDatabaseOpener, uninstallDatabase } from "@/lib/db";
import { registerAllJobHandlers } from "@/lib/job-handlers";
import { registerApiRouter } from "@/lib/api/register-router";
import { resetEnv } from "@/lib/env";
import { createTestDatabase } from "./database";
import { setTestHandle } from "./helpers";

process.env.ENCRYPTION_KEY ??= "0".repeat(64);
process.env.LOG_LEVEL ??= "error";
(process.env as Record<string, string>).NODE_ENV = "test";
resetEnv();
registerAllJobHandlers();
registerApiRouter();

// Each file gets its own database, opened when first used: an in-memory PGlite costs seconds of CPU
// to start, and a third of the files (pure functions, the emulator, child processes on their own
// data directories) never touch it. A file that uses the test helpers gets it before its tests, so
// that testDb() can answer synchronously; code under test opens it on its first getDb().
let opened: Promise<DatabaseHandle> | undefined;
const open = () =>
  (opened ??= createTestDatabase(inject("runId"), inject("pgliteSnapshot")).then((handle) => {
    setTestHandle(handle);
    return handle;
  }));
installDatabaseOpener(open);

const usesTestHelpers = /@\/test\/|from "\.\.?\/(helpers|loopback-api)"/;

// Vitest hands a hook its fixtures first and the suite second.
beforeAll(async ({}, suite) => {
  if (usesTestHelpers.test(fs.readFileSync(suite.file.filepath, "utf8"))) await open();
});

afterAll(async ({}, suite) => {
  // CI's PGlite pass lists the files that opened a database; its PostgreSQL pass runs those (and
  // the files that start processes of their own), as the others cannot meet the database.
  const log = process.env.KASSA_TEST_DATABASE_FILES;
  if (log && opened) fs.appendFileSync(log, `${path.relative(process.cwd(), suite.file.filepath)}\n`);
  uninstallDatabase();
  setTestHandle(null);
  if (opened) await (await opened).close();
});
