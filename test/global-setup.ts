import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/db/client";
import { prepareDatabase } from "@/lib/prepare-database";
import { templateName, withDatabase } from "./database";

/** With DATABASE_URL: one migrated template database per run, cloned by every test file. */
export default async function setup(project: TestProject) {
  const runId = `${process.pid}`;
  project.provide("runId", runId);
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return;
  const template = templateName(runId);
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE "${template}"`);
  const handle = await openDatabase({ kind: "postgres", url: withDatabase(serverUrl, template), max: 1 });
  await prepareDatabase(handle);
  await handle.close();
  return async () => {
    await admin.unsafe(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    await admin.end();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    runId: string;
  }
}
