// npm run bench: Kassa's production server over real HTTP against a floor (bench/floor-server.ts:
// node:http + postgres.js doing the same durable work), driven by the same load generator
// (autocannon) in one run, rounds alternated. Prints req/s, p50, p99 and the ratio of each case,
// webhook delivery, the checkout page's first-load JavaScript and the server's resident memory (at
// rest, after one request of each kind, at the run's peak: bench/memory.ts), next to the
// goals of issue 13. docs/benchmarks.md says what each case measures.
//   BENCH_SECONDS (10) per round, BENCH_ROUNDS (2), BENCH_CONNECTIONS (16), BENCH_WEBHOOKS (200 per phase),
//   BENCH_PAYERS (50 sandbox card payments at once), BENCH_LIGHTHOUSE_RUNS (5: the checkout goal is
//   their median), BENCH_SCROLLBARS=1 (Chromium shows scrollbars: decision 0033 seventh pass);
//   DATABASE_URL: the PostgreSQL to use (else postgres://postgres@127.0.0.1:5432/kassa_bench,
//   recreated on each run; unreachable: the PostgreSQL cases are skipped).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIfNeeded } from "@/server/build";
import { checkoutJavaScript, type CheckoutJs } from "./checkout-js";
import { cliStart, type CliStart } from "./cli-start";
import { checkoutChromiumFlags, checkoutLighthouseRuns, formatCls, type CheckoutLighthouse, type Skipped } from "./checkout-lighthouse";
import { loadRound, median, type LoadCase, type RoundResult } from "./load";
import { postgresTarget } from "./postgres-target";
import { combine, describeSandboxPayments, sandboxPaymentsRound, type SandboxPaymentFigures } from "./sandbox-payments";
import { describeMemory, memorySteps, peakSampler, type MemoryFigures } from "./memory";
import { killAll, startFloor, startKassa, type KassaServer, type Server } from "./processes";
import { pool, webhookCase, type WebhookFigures } from "./webhooks";
import { tracingOffCost } from "./tracing-off";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const lighthouseRuns = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
const webhookCount = Number(process.env.BENCH_WEBHOOKS ?? 200);
const payers = Number(process.env.BENCH_PAYERS ?? 50);

const runId = Date.now();
let sequence = 0;
function sessionCase(key: string): LoadCase {
  return {
    method: "POST",
    path: () => "/api/session",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: () =>
      JSON.stringify({
        amount: 2500,
        currency: "USD",
        customer: "cus_bench",
        order_id: `bench-${runId}-${sequence++}`,
        items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
      }),
  };
}

function paymentCase(key: string, ids: string[]): LoadCase {
  let i = 0;
  return {
    method: "GET",
    path: () => `/api/payment/${ids[i++ % ids.length]}`,
    headers: { authorization: `Bearer ${key}` },
  };
}

/** Sessions to read back in the GET /payment case. */
async function seedSessions(server: Server, key: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  const make = sessionCase(key);
  await pool(Array.from({ length: count }, (_, i) => i), 8, async () => {
    const response = await fetch(server.origin + make.path(), { method: "POST", headers: make.headers, body: make.body!() });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`${server.name}: POST /session answered ${response.status}: ${text.slice(0, 300)}`);
    ids.push((JSON.parse(text) as { session_id: string }).session_id);
  });
  return ids;
}

type Figures = { rps: number; p50: number; p99: number; failed: number; p99s: number[] };
const collected = new Map<string, RoundResult[]>();

async function round(label: string, server: Server, c: LoadCase) {
  const result = await loadRound(server.origin, c, seconds, connections);
  collected.set(label, [...(collected.get(label) ?? []), result]);
  process.stderr.write(
    `  ${label.padEnd(34)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms${result.failed ? `  FAILED ${result.failed}` : ""}\n`,
  );
}

function figures(label: string): Figures | undefined {
  const results = collected.get(label);
  if (!results) return undefined;
  return {
    rps: median(results.map((r) => r.rps)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    failed: results.reduce((n, r) => n + r.failed, 0),
    p99s: results.map((r) => r.p99),
  };
}

const mark = (met: boolean) => (met ? "met" : "NOT met");
const fmt = (f: Figures) =>
  `${f.rps.toFixed(0).padStart(6)} req/s  p50 ${f.p50.toFixed(0).padStart(4)} ms  p99 ${f.p99.toFixed(0).padStart(5)} ms (rounds ${f.p99s.join(", ")})${f.failed ? `  ${f.failed} failed requests` : ""}`;

async function main() {
  const started = new Date();
  console.log(`Kassa benchmark, ${started.toISOString()}: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  console.log(`autocannon, ${connections} connections, ${seconds} s per round, ${rounds} rounds alternated (medians below)\n`);

  buildIfNeeded(root);
  const target = await postgresTarget();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-bench-"));
  const servers: Server[] = [];
  try {
    process.stderr.write("starting servers…\n");
    const pglite = await startKassa(root, "Kassa (PGlite)", { dataDir: path.join(scratch, "pglite") });
    servers.push(pglite);
    let pg: KassaServer | undefined;
    let floor: Awaited<ReturnType<typeof startFloor>> | undefined;
    if ("url" in target) {
      pg = await startKassa(root, "Kassa (PostgreSQL)", { databaseUrl: target.url, dataDir: path.join(scratch, "pg") });
      servers.push(pg);
      floor = await startFloor(root, target.url);
      servers.push(floor);
    }
    // Resident memory at rest and after one request of each kind, then its peak over the whole run.
    const memory = new Map<KassaServer, MemoryFigures>();
    for (const server of [pglite, ...(pg ? [pg] : [])]) memory.set(server, await memorySteps(server));
    const sampler = peakSampler(() => [...memory.keys()].map((s) => s.pid));

    // Warm-up (JIT, connection pools, Next's route compilation), then sessions to read back.
    process.stderr.write("warming up…\n");
    const warm = Math.min(3, seconds);
    await loadRound(pglite.origin, sessionCase(pglite.secretKey), warm, connections);
    const pgliteIds = await seedSessions(pglite, pglite.secretKey, 50);
    let pgIds: string[] = [];
    let floorIds: string[] = [];
    if (pg && floor) {
      await loadRound(pg.origin, sessionCase(pg.secretKey), warm, connections);
      await loadRound(floor.origin, sessionCase(floor.key), warm, connections);
      pgIds = await seedSessions(pg, pg.secretKey, 200);
      floorIds = await seedSessions(floor, floor.key, 200);
    }

    for (let r = 1; r <= rounds; r++) {
      process.stderr.write(`round ${r}/${rounds}\n`);
      if (pg && floor) {
        await round("POST /session · Kassa · PostgreSQL", pg, sessionCase(pg.secretKey));
        await round("POST /session · floor", floor, sessionCase(floor.key));
        await round("GET /payment · Kassa · PostgreSQL", pg, paymentCase(pg.secretKey, pgIds));
        await round("GET /payment · floor", floor, paymentCase(floor.key, floorIds));
      }
      await round("POST /session · Kassa · PGlite", pglite, sessionCase(pglite.secretKey));
      if (!pg) await round("GET /payment · Kassa · PGlite", pglite, paymentCase(pglite.secretKey, pgliteIds));
    }

    // Sandbox card payments, 50 payers at once on one business, each server in turn (issue 27).
    const sandboxPayments = new Map<string, SandboxPaymentFigures[]>();
    const payServers = [...(pg ? [["PostgreSQL", pg] as const] : []), ["PGlite", pglite] as const];
    // A warm-up round on each, printed and not counted, as the API cases warm up before theirs: a
    // server's first payments load the payment path and open the emulator account (docs/benchmarks.md).
    const payWarmUps = new Map<string, SandboxPaymentFigures | Error>();
    for (const [name, server] of payServers) {
      process.stderr.write(`sandbox payments: ${payers} at once · ${name}, warm-up\n`);
      payWarmUps.set(name, await sandboxPaymentsRound(server, payers).catch((error: unknown) => error as Error));
    }
    for (let r = 1; r <= rounds; r++) {
      for (const [name, server] of payServers) {
        process.stderr.write(`sandbox payments: ${payers} at once · ${name}, round ${r}/${rounds}\n`);
        const result = await sandboxPaymentsRound(server, payers).catch((error: unknown) => error as Error);
        if (result instanceof Error) process.stderr.write(`  failed: ${result.message}\n`);
        else sandboxPayments.set(name, [...(sandboxPayments.get(name) ?? []), result]);
      }
    }

    // Webhooks and the checkout page on the PostgreSQL server when there is one (else PGlite).
    const main = pg ?? pglite;
    process.stderr.write(`webhooks: 2 × ${webhookCount} payments…\n`);
    let webhooks: WebhookFigures | Error;
    try {
      webhooks = await webhookCase(main, webhookCount, connections);
    } catch (error) {
      webhooks = error as Error;
    }
    let checkout: CheckoutJs | Error;
    let lighthouse: CheckoutLighthouse[] | Skipped | Error;
    try {
      const checkoutSession = (await seedSessions(main, main.secretKey, 1))[0]!;
      checkout = await checkoutJavaScript(main, checkoutSession);
      process.stderr.write(`lighthouse: ${lighthouseRuns} mobile runs on the checkout page…\n`);
      const url = `${main.origin}/checkout/${checkoutSession}`;
      lighthouse = await checkoutLighthouseRuns(url, lighthouseRuns).catch((error: unknown) => error as Error);
    } catch (error) {
      checkout = lighthouse = error as Error;
    }

    let cli: CliStart | Error;
    try {
      process.stderr.write("CLI: business list through the running PGlite server…\n");
      cli = cliStart(root, path.join(scratch, "pglite"));
    } catch (error) {
      cli = error as Error;
    }

    // The report.
    console.log("");
    const sessionPg = figures("POST /session · Kassa · PostgreSQL");
    const sessionFloor = figures("POST /session · floor");
    const paymentPg = figures("GET /payment · Kassa · PostgreSQL");
    const paymentFloor = figures("GET /payment · floor");
    const sessionPglite = figures("POST /session · Kassa · PGlite");
    const paymentPglite = figures("GET /payment · Kassa · PGlite");
    if (sessionPg && sessionFloor && paymentPg && paymentFloor && "url" in target) {
      console.log(`PostgreSQL: ${target.source === "default" ? `${target.url} (recreated for this run)` : "DATABASE_URL"}`);
      const sessionRatio = sessionPg.rps / sessionFloor.rps;
      const p99Ratio = sessionPg.p99 / sessionFloor.p99;
      console.log(`POST /session (secret key), PostgreSQL`);
      console.log(`  Kassa  ${fmt(sessionPg)}`);
      console.log(`  floor  ${fmt(sessionFloor)}`);
      console.log(`  ratio  ${sessionRatio.toFixed(3)} of the floor (goal ≥ 0.5: ${mark(sessionRatio >= 0.5)}); p99 ${p99Ratio.toFixed(1)}× the floor's (goal ≤ 3×: ${mark(p99Ratio <= 3)})`);
      const paymentRatio = paymentPg.rps / paymentFloor.rps;
      console.log(`GET /payment/{id}, PostgreSQL`);
      console.log(`  Kassa  ${fmt(paymentPg)}`);
      console.log(`  floor  ${fmt(paymentFloor)}`);
      console.log(`  ratio  ${paymentRatio.toFixed(3)} of the floor (goal ≥ 0.5: ${mark(paymentRatio >= 0.5)})`);
    } else {
      console.log(`PostgreSQL cases skipped: ${"skipped" in target ? target.skipped : "no figures"}`);
    }
    if (sessionPglite) {
      console.log(`POST /session (secret key), embedded PGlite`);
      console.log(`  Kassa  ${fmt(sessionPglite)}`);
      if (sessionPg) {
        const ratio = sessionPglite.rps / sessionPg.rps;
        console.log(`  ratio  ${ratio.toFixed(2)} of the same build on PostgreSQL (goal ≥ 0.6: ${mark(ratio >= 0.6)}); p99 goal ≤ 250 ms: ${mark(sessionPglite.p99 <= 250)}`);
      } else {
        console.log(`  ratio  - (no PostgreSQL to compare); p99 goal ≤ 250 ms: ${mark(sessionPglite.p99 <= 250)}`);
      }
    }
    if (paymentPglite) console.log(`GET /payment/{id}, embedded PGlite\n  Kassa  ${fmt(paymentPglite)}`);

    console.log(`Sandbox card payments through the hosted page, one business (median of ${rounds} rounds after a warm-up round)`);
    for (const [name] of payServers) {
      const warmUp = payWarmUps.get(name);
      if (warmUp instanceof Error) console.log(`  ${name} warm-up failed: ${warmUp.message}`);
      else if (warmUp) console.log(describeSandboxPayments(name, warmUp, true));
      const results = sandboxPayments.get(name);
      console.log(results ? describeSandboxPayments(name, combine(results)) : `  ${name}: failed`);
    }
    console.log(`Webhook delivery to a loopback receiver (${main === pg ? "PostgreSQL" : "PGlite"}, sandbox payments, ${connections} at once)`);
    if (webhooks instanceof Error) console.log(`  failed: ${webhooks.message}`);
    else {
      console.log(`  answered at once: ${webhooks.delivered}/${webhooks.paid} delivered at ${webhooks.perSecond.toFixed(0)}/s while payments ran at ${webhooks.payPerSecond.toFixed(0)}/s`);
      console.log(`  commit → first attempt p50 ${webhooks.p50.toFixed(0)} ms, p95 ${webhooks.p95.toFixed(0)} ms (goal ≤ 1000 ms: ${mark(webhooks.p95 <= 1000)})`);
      console.log(`  backlog of ${webhooks.backlog} drained: ${webhooks.drained} deliveries (${webhooks.heldInFlight} of them in flight while held) at ${webhooks.drainPerSecond.toFixed(0)}/s (goal ≥ 500/s: ${mark(webhooks.drainPerSecond >= 500)})${webhooks.drainCpuMsPerDelivery === undefined ? "" : `, Kassa's CPU ${webhooks.drainCpuMsPerDelivery.toFixed(2)} ms per delivery`}`);
    }
    console.log(`Checkout page, first-load JavaScript`);
    if (checkout instanceof Error) console.log(`  failed: ${checkout.message}`);
    else {
      const kb = checkout.gzipBytes / 1000;
      console.log(`  ${checkout.scripts} scripts, ${(checkout.rawBytes / 1000).toFixed(0)} kB raw, ${kb.toFixed(1)} kB gzip (goal ≤ 175 kB: ${mark(kb <= 175)}); not counted: ${checkout.noModule.scripts} nomodule script, ${(checkout.noModule.gzipBytes / 1000).toFixed(1)} kB gzip`);
    }
    console.log(`Checkout page, Lighthouse mobile, median of ${lighthouseRuns} (simulated throttling; TBT scales with this machine's load)`);
    if (lighthouse instanceof Error) console.log(`  failed: ${lighthouse.message}`);
    else if ("skipped" in lighthouse) console.log(`  skipped: ${lighthouse.skipped}`);
    else printLighthouse(lighthouse);
    console.log(`A CLI command's start while the server runs (npx kassa business list --json, whole process)`);
    if (cli instanceof Error) console.log(`  failed: ${cli.message}`);
    else console.log(`  median ${(cli.medianMs / 1000).toFixed(2)} s of ${cli.runs} (goal ≤ 1 s: ${mark(cli.medianMs <= 1000)}); a bare \`node -e 0\` ${(cli.baselineMs / 1000).toFixed(2)} s`);
    // Tracing unset (issue 42): what its hooks add, in this process (the server's code, same modules).
    const tracing = await tracingOffCost().catch((error: unknown) => error as Error);
    console.log(`Tracing unset: extra time per hook over calling the work directly (median of 5 alternated rounds)`);
    if (tracing instanceof Error) console.log(`  failed: ${tracing.message}`);
    else {
      const { requestSpan, inSpan, annotate, logTraceIds } = tracing.extraNs;
      // A POST /session passes one request span, one or two transactions, an annotation or two
      // and a few log lines' trace ids: ten hooks is generous.
      const perRequestUs = (requestSpan + 3 * inSpan + 2 * annotate + 4 * logTraceIds) / 1000;
      const p50 = (sessionPg ?? sessionPglite)?.p50;
      console.log(
        `  request span ${requestSpan.toFixed(0)} ns, a span ${inSpan.toFixed(0)} ns, an annotation ${annotate.toFixed(0)} ns, a log line's trace ids ${logTraceIds.toFixed(0)} ns; ten hooks ${perRequestUs.toFixed(2)} µs` +
          (p50 ? `, ${((perRequestUs / 1000 / p50) * 100).toFixed(3)}% of POST /session's p50 (${p50.toFixed(0)} ms) (goal under 1%: ${mark(perRequestUs / 1000 / p50 < 0.01)})` : ""),
      );
    }
    sampler.stop();
    console.log(`Resident memory (RSS 2 s after each step; the peak sampled every 250 ms over the whole run)`);
    for (const [server, figures] of memory)
      console.log(describeMemory(server.name, server === pg ? "postgres" : "pglite", { ...figures, peakMb: sampler.peak.get(server.pid) }));
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  killAll();
  process.exit(1);
});

/** The checkout's Lighthouse runs: the medians against the goals, then each run. */
function printLighthouse(runs: CheckoutLighthouse[]) {
  const lcp = median(runs.map((r) => r.lcpMs));
  const tbt = median(runs.map((r) => r.tbtMs));
  const cls = Math.max(...runs.map((r) => r.cls));
  const scrollbars = checkoutChromiumFlags().includes("--hide-scrollbars") ? "hidden" : "shown";
  console.log(`  LCP ${(lcp / 1000).toFixed(2)} s (goal ≤ 1.5 s: ${mark(lcp <= 1500)}), TBT ${tbt.toFixed(0)} ms (goal ≤ 150 ms: ${mark(tbt <= 150)}), CLS max ${formatCls(cls)} (goal 0: ${mark(cls === 0)}); TTI ${(median(runs.map((r) => r.ttiMs)) / 1000).toFixed(2)} s; performance ${median(runs.map((r) => r.score)).toFixed(2)}`);
  console.log(`  each run: LCP ${runs.map((r) => (r.lcpMs / 1000).toFixed(2)).join(", ")} s; TBT ${runs.map((r) => r.tbtMs.toFixed(0)).join(", ")} ms; CLS ${runs.map((r) => formatCls(r.cls)).join(", ")}; first frame late in ${runs.filter((r) => r.firstFrame?.late).length}; Chromium's scrollbars ${scrollbars} (decision 0033)`);
  console.log(`  JavaScript transferred ${(runs[0]!.scriptBytes / 1024).toFixed(1)} KiB; LCP element ${runs[0]!.lcpElement ?? "?"}`);
}
