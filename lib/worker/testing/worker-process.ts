// Test support: an embedded worker in a process of its own (a second app instance that a test can
// SIGKILL mid-batch). Usage: tsx lib/worker/testing/worker-process.ts <postgres-url> <lease-ms>
import { openDatabase } from "@/db/client";
import { registerAllJobHandlers } from "@/lib/job-handlers";
import { startEmbeddedWorker } from "../embedded-worker";

const [url, leaseMs] = process.argv.slice(2);
if (!url) throw new Error("usage: worker-process.ts <postgres-url> <lease-ms>");
registerAllJobHandlers();
const handle = await openDatabase({ kind: "postgres", url, max: 4 });
startEmbeddedWorker(handle.db, {
  force: true,
  workerId: `child:${process.pid}`,
  concurrency: 5,
  webhookConcurrency: 5,
  pollIntervalMs: 20,
  leaseMs: Number(leaseMs ?? 1000),
  context: { webhooks: { allowPrivate: true, timeoutMs: 60_000, scheduleMs: [0, 100, 100, 100] } },
});
process.stdout.write("worker started\n");
