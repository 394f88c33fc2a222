import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { describe, expect, it } from "vitest";
import { migratedDataDir } from "@/test/migrated-data-dir";
import { nodeEntryArgs } from "@/test/node-entry";

// Issue 22: after a kill -9 during a pay call, the payer's retries answered "in progress" (409)
// for 60 to 90 s, until the dead process's heartbeat timed out and a reconciliation pass came.
// On the embedded database a restarted server knows every earlier process is dead, and settles
// what they left open at once. Each server is a process of its own on one DATA_DIR
// (lib/payments/testing/restart-pay-process.ts), with the default heartbeat and pass intervals
// but a long heartbeat timeout: a slow restart must not let the heartbeat rule settle it instead.

const root = path.resolve(import.meta.dirname, "../..");
const script = path.join(root, "lib/payments/testing/restart-pay-process.ts");

function start(dataDir: string, args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent", API_BASE_URL: "http://127.0.0.1:9/api" };
  for (const name of ["DATABASE_URL", "INSTANCE_HEARTBEAT_SECONDS", "RECONCILE_INTERVAL_SECONDS"]) delete env[name];
  env.INSTANCE_TIMEOUT_SECONDS = "600";
  const child = spawn(process.execPath, [...nodeEntryArgs(script), ...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(signal ?? String(code))));
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`the process ended: ${stderr}`);
    return JSON.parse(value as string) as Record<string, unknown>;
  };
  return { child, exited, next };
}

describe.skipIf(process.env.DATABASE_URL)("a payer's retry after a crash and restart (embedded database)", () => {
  it("gets the settled result within seconds, not after the heartbeat timeout", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-restart-pay-"));
    try {
      // A migrated database in DATA_DIR/pglite, where the servers open it: a fresh directory's
      // initdb and migrations alone take seconds.
      migratedDataDir(dataDir);

      const crash = start(dataDir, ["crash"]);
      const { key, session } = (await crash.next()) as { key: string; session: string };
      expect(await crash.exited).toBe("SIGKILL");

      const restart = start(dataDir, ["restart", key, session]);
      const retry = (await restart.next()) as { status: number; body: { error?: string; message?: string }; ms: number; payment: string };
      expect(await restart.exited).toBe("0");
      // The charge happened before the crash: the answer is the settled one, the payment succeeded.
      expect(retry.status).toBe(409);
      expect(retry.body).toMatchObject({ error: "session_not_payable", message: expect.stringMatching(/already been paid/) });
      expect(retry.payment).toBe("succeeded");
      // Before: INSTANCE_TIMEOUT_SECONDS (60 by default, 600 here), then a pass every 30 s. Seconds
      // now; the bound is generous for a loaded machine and still below the default timeout.
      expect(retry.ms, JSON.stringify(retry)).toBeLessThan(30_000);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
