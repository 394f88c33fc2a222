// npm run bench: in-process throughput and latency of the hot API paths, through the same router
// Next serves (lib/api/routes.ts), on the embedded PGlite or on DATABASE_URL's PostgreSQL.
// Prints one line per scenario; BENCH_REQUESTS (default 2000) and BENCH_CONCURRENCY (default 16).
import { performance } from "node:perf_hooks";
import { openDatabase, type DatabaseHandle } from "@/db/client";
import { dispatch } from "@/lib/api/routes";
import { createBusiness } from "@/lib/businesses/create-business";
import { installDatabase } from "@/lib/db";
import { resetEnv } from "@/lib/env";
import { clientIpHeader } from "@/lib/http/client-ip";
import { prepareDatabase } from "@/lib/prepare-database";

process.env.LOG_LEVEL ??= "error";
process.env.ENCRYPTION_KEY ??= "be0c".repeat(16);
process.env.RATE_LIMIT_SESSION_SECRET = "100000000";
resetEnv();

const requests = Number(process.env.BENCH_REQUESTS ?? 2000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);

async function open(): Promise<DatabaseHandle> {
  const url = process.env.DATABASE_URL;
  const handle = url ? await openDatabase({ kind: "postgres", url, max: concurrency }) : await openDatabase({ kind: "pglite" });
  await prepareDatabase(handle);
  return handle;
}

function call(method: string, path: string, key: string, body?: unknown): Promise<Response> {
  const headers = new Headers({ authorization: `Bearer ${key}`, [clientIpHeader]: "203.0.113.7" });
  if (body !== undefined) headers.set("content-type", "application/json");
  return dispatch(
    new Request(`http://bench.local/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
}

async function scenario(name: string, run: (i: number) => Promise<Response>) {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        const i = next++;
        const t = performance.now();
        const response = await run(i);
        await response.arrayBuffer();
        if (response.status >= 400) failures++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))]!.toFixed(2);
  console.log(
    `${name.padEnd(24)} ${(requests / seconds).toFixed(0).padStart(6)} req/s   p50 ${pct(50)} ms   p99 ${pct(99)} ms   errors ${failures}`,
  );
}

const handle = await open();
installDatabase(handle);
const biz = await createBusiness(handle.db, { name: `Bench ${Date.now()}` });
const runId = Date.now();
const sessionIds: string[] = [];
console.log(`Kassa bench on ${handle.kind}: ${requests} requests per scenario, concurrency ${concurrency}`);
await scenario("POST /session", async (i) => {
  const response = await call("POST", "/session", biz.secretKey, {
    amount: 2500,
    currency: "USD",
    customer: "cus_bench",
    order_id: `bench-${runId}-${i}`,
    items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
  });
  if (response.status === 201) sessionIds.push(((await response.clone().json()) as { session_id: string }).session_id);
  return response;
});
await scenario("GET /payment/{id}", (i) => call("GET", `/payment/${sessionIds[i % sessionIds.length]}`, biz.secretKey));
await scenario("GET /payments/methods", () => call("GET", "/payments/methods?countries=US,BR", biz.publicKey));
await scenario("GET /balance", () => call("GET", "/balance", biz.secretKey));
await scenario("unauthorized", () => call("GET", "/balance", "sk_test_" + "x".repeat(32)));
await handle.close();
