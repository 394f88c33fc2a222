import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, inject, vi } from "vitest";
import type { DatabaseHandle } from "@/db/client";
import { jobKinds } from "@/db/schema/jobs";
import { installDatabaseOpener, uninstallDatabase } from "@/lib/db-holder";
import type { JobHandler } from "@/lib/jobs/job-outcome";
import { registerJobHandlers } from "@/lib/jobs/registry";
import { registerApiRouter } from "@/lib/api/register-router";
import { resetEnv } from "@/lib/env";
import { setTestHandle } from "./test-handle";

// What Next's server sets before it loads its modules (next/dist/server/node-environment-baseline):
// a file that loads Next's request storage without starting Next (Auth.js's routes) would
// otherwise leave the worker a stand-in that throws once a later file starts Next in it.
(globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage ??= AsyncLocalStorage;
process.env.ENCRYPTION_KEY ??= "0".repeat(64);
process.env.LOG_LEVEL ??= "error";
(process.env as Record<string, string>).NODE_ENV = "test";
resetEnv();
// Every job kind's handler, loaded with the domains it runs on the first job: most files run none,
// and loading them all costs each file about a second.
const handlers = () => import("@/lib/job-handlers").then((module) => module.jobHandlers);
registerJobHandlers(
  Object.fromEntries(
    jobKinds.map((kind): [string, JobHandler] => [
      kind,
      async (...args) => {
        const handler = (await handlers())[kind];
        if (!handler) throw new Error(`no handler for ${kind} jobs in lib/job-handlers.ts`);
        return handler(...args);
      },
    ]),
  ),
);
registerApiRouter();

// Each file gets its own database, opened when first used: an in-memory PGlite costs seconds of CPU
// to start, and a third of the files (pure functions, the emulator, child processes on their own
// data directories) never touch it. A file that uses the test helpers gets it before its tests, so
// that testDb() can answer synchronously; code under test opens it on its first getDb().
let opened: Promise<DatabaseHandle> | undefined;
const open = () =>
  (opened ??= import("./database")
    .then(({ createTestDatabase }) => createTestDatabase(inject("runId"), inject("pgliteSnapshot")))
    .then((handle) => {
      setTestHandle(handle);
      return handle;
    }));
installDatabaseOpener(open);

const usesTestHelpers = /@\/test\/|from "\.\.?\/(helpers|loopback-api)"/;

// Vitest hands a hook its fixtures first and the suite second.
beforeAll(async ({}, suite) => {
  if (usesTestHelpers.test(fs.readFileSync(suite.file.filepath, "utf8"))) await open();
});

// Vitest runs a worker's files one after another in one process, sharing its modules
// (vitest.config.ts: isolate false): what a file changed in the process is undone when it ends.
const envAtStart = { ...process.env };

async function undoProcessChanges(): Promise<void> {
  // The sandbox emulator a file started holds that file's database.
  const { stopSandboxEmulator } = await import("@/lib/providers/stripe/sandbox-emulator");
  await stopSandboxEmulator();
  for (const name of Object.keys(process.env)) if (!(name in envAtStart)) delete process.env[name];
  Object.assign(process.env, envAtStart);
  resetEnv();
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
}

afterAll(async ({}, suite) => {
  // CI's PGlite pass lists the files that opened a database; its PostgreSQL pass runs those (and
  // the files that start processes of their own), as the others cannot meet the database.
  const log = process.env.KASSA_TEST_DATABASE_FILES;
  if (log && opened) fs.appendFileSync(log, `${path.relative(process.cwd(), suite.file.filepath)}\n`);
  await undoProcessChanges();
  uninstallDatabase();
  setTestHandle(null);
  if (opened) {
    const handle = await opened;
    // A file that paid a session started this process's heartbeat on its database: stopped here, or
    // its timer goes on beating on the closed database and logs into a later file's tests.
    const { stopInstanceHeartbeat } = await import("@/lib/instances/instance-heartbeat");
    await stopInstanceHeartbeat(handle.db).catch(() => undefined);
    await handle.close();
  }
});
