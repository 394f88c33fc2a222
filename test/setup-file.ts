import { afterAll, beforeAll, inject } from "vitest";
import { installDatabase, uninstallDatabase } from "@/lib/db";
import { registerAllJobHandlers } from "@/lib/job-handlers";
import { resetEnv } from "@/lib/env";
import { createTestDatabase } from "./database";
import { setTestHandle } from "./helpers";

process.env.ENCRYPTION_KEY ??= "0".repeat(64);
process.env.LOG_LEVEL ??= "error";
(process.env as Record<string, string>).NODE_ENV = "test";
resetEnv();
registerAllJobHandlers();

beforeAll(async () => {
  const handle = await createTestDatabase(inject("runId"));
  installDatabase(handle);
  setTestHandle(handle);
});

afterAll(async () => {
  const handle = setTestHandle(null);
  uninstallDatabase();
  await handle?.close();
});
