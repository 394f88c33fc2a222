// npm run bench:memory: Kassa's resident memory and start-to-ready alone (bench/memory.ts), a
// server per database started in turn (PostgreSQL as bench/postgres-target.ts finds it, then
// PGlite; BENCH_MEMORY_POSTGRES=0 or BENCH_MEMORY_PGLITE=0 leaves one out): at rest, after one
// request of each kind, then the peak under a short load (POST /session, then BENCH_PAYERS
// sandbox card payments at once). BENCH_SECONDS (10) for the load.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIfNeeded } from "@/server/build";
import { loadRound } from "./load";
import { describeMemory, memorySteps, peakSampler } from "./memory";
import { postgresTarget } from "./postgres-target";
import { killAll, startKassa, type KassaServer } from "./processes";
import { sandboxPaymentsRound } from "./sandbox-payments";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const payers = Number(process.env.BENCH_PAYERS ?? 50);

async function measure(server: KassaServer, database: "postgres" | "pglite"): Promise<string> {
  const figures = await memorySteps(server);
  const sampler = peakSampler(() => [server.pid]);
  try {
    let order = 0;
    await loadRound(
      server.origin,
      {
        method: "POST",
        path: () => "/api/session",
        headers: { authorization: `Bearer ${server.secretKey}`, "content-type": "application/json" },
        body: () =>
          JSON.stringify({
            amount: 2500,
            currency: "USD",
            customer: "cus_memory",
            order_id: `load-${Date.now()}-${order++}`,
            items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
          }),
      },
      seconds,
      16,
    );
    await sandboxPaymentsRound(server, payers);
  } finally {
    sampler.stop();
  }
  return describeMemory(server.name, database, { ...figures, peakMb: sampler.peak.get(server.pid) });
}

async function main() {
  console.log(
    `Kassa memory, ${new Date().toISOString()}: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  buildIfNeeded(root);
  const target = await postgresTarget();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-memory-"));
  const lines: string[] = [];
  try {
    if (process.env.BENCH_MEMORY_POSTGRES === "0") lines.push("  PostgreSQL not measured (BENCH_MEMORY_POSTGRES=0)");
    else if ("url" in target) {
      const pg = await startKassa(root, "Kassa (PostgreSQL)", { databaseUrl: target.url, dataDir: path.join(scratch, "pg") });
      lines.push(await measure(pg, "postgres"));
      await pg.stop();
    } else lines.push(`  PostgreSQL skipped: ${target.skipped}`);
    if (process.env.BENCH_MEMORY_PGLITE !== "0") {
      const pglite = await startKassa(root, "Kassa (PGlite)", { dataDir: path.join(scratch, "pglite") });
      lines.push(await measure(pglite, "pglite"));
      await pglite.stop();
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  console.log(
    `Resident memory (RSS, 2 s after each step; peak sampled every 250 ms over ${seconds} s of POST /session and ${payers} payments at once)`,
  );
  console.log(lines.join("\n"));
}

main().catch((error: unknown) => {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  killAll();
  process.exit(1);
});
