// npm run bench's webhook case alone, on one Kassa server (PostgreSQL with DATABASE_URL, else
// PGlite), for profiling the drain: prints the case's figures and Kassa's CPU per delivery.
//   BENCH_PORT (a free port), BENCH_WEBHOOKS (200 live payments), BENCH_BACKLOG (as many),
//   BENCH_CONNECTIONS (16), BENCH_ROUNDS (1): rounds on the same server, each a fresh endpoint;
//   KASSA_NODE_OPTIONS: passed to the server's node (e.g. --cpu-prof --cpu-prof-dir=...).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIfNeeded } from "@/server/build";
import { killAll, startKassa } from "./processes";
import { webhookCase } from "./webhooks";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const count = Number(process.env.BENCH_WEBHOOKS ?? 200);
const backlog = Number(process.env.BENCH_BACKLOG ?? count);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined;

async function main() {
  buildIfNeeded(root);
  const scratch = fs.mkdtempSync(path.join(process.env.BENCH_SCRATCH ?? os.tmpdir(), "kassa-webhooks-"));
  const databaseUrl = process.env.DATABASE_URL;
  const kassa = await startKassa(root, "Kassa", { databaseUrl, dataDir: path.join(scratch, "data"), port });
  try {
    console.log(`${databaseUrl ? "PostgreSQL" : "PGlite"}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    for (let r = 1; r <= rounds; r++) {
      const f = await webhookCase(kassa, count, connections, { backlog });
      console.log(
        `round ${r}: live ${f.delivered}/${f.paid} p50 ${f.p50.toFixed(0)} ms p95 ${f.p95.toFixed(0)} ms; ` +
          `backlog ${f.drained}/${f.backlog} (${f.heldInFlight} held in flight) at ${f.drainPerSecond.toFixed(0)}/s, ` +
          `CPU ${f.drainCpuMsPerDelivery?.toFixed(2) ?? "?"} ms per delivery; load ${os.loadavg()[0]!.toFixed(1)}`,
      );
    }
  } finally {
    await kassa.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  killAll();
  process.exit(1);
});
