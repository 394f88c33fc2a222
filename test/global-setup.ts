import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/db/client";
import { prepareDatabase } from "@/lib/prepare-database";
import { templateName, withDatabase } from "./database";
import { buildChildEntries } from "./node-entry";

/**
 * One migrated database per run, copied by every test file: with DATABASE_URL a template database
 * each file clones; on PGlite a dump of a migrated data directory each file loads, which skips the
 * initdb and the migrations every fresh in-memory PGlite would otherwise run (seconds of CPU each).
 */
export default async function setup(project: TestProject) {
  const runId = `${process.pid}`;
  project.provide("runId", runId);
  // The bundles of the CLI and the test servers that tests start as processes (test/node-entry.ts).
  const bundles = buildChildEntries();
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-test-pglite-"));
    const snapshot = path.join(dir, "migrated.tar");
    const handle = await openDatabase({ kind: "pglite" });
    await prepareDatabase(handle);
    const dump = await handle.pglite!.dumpDataDir("none");
    await handle.close();
    fs.writeFileSync(snapshot, Buffer.from(await dump.arrayBuffer()));
    project.provide("pgliteSnapshot", snapshot);
    // The same database as a data directory on disk, which tests copy into the DATA_DIR of the
    // processes they start (test/migrated-data-dir.ts).
    const template = path.join(dir, "pglite");
    await (await openDatabase({ kind: "pglite", dataDir: template, loadDataDir: dump })).close();
    project.provide("pgliteDataDirTemplate", template);
    await bundles;
    return () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const template = templateName(runId);
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE "${template}"`);
  const handle = await openDatabase({ kind: "postgres", url: withDatabase(serverUrl, template), max: 1 });
  await prepareDatabase(handle);
  await handle.close();
  await bundles;
  return async () => {
    await admin.unsafe(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    await admin.end();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    runId: string;
    /** On PGlite: the migrated data directory's dump (a tar file) each test file loads. */
    pgliteSnapshot?: string;
    /** On PGlite: the same database as a closed data directory, for test/migrated-data-dir.ts. */
    pgliteDataDirTemplate?: string;
  }
}
