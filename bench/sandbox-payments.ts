// Sandbox card payments at once on one business (issue 27, item 4): `payers` customers pay their
// own session at the same moment through the hosted page's endpoint (POST
// /api/checkout/sessions/{id}/pay with a test card), which goes through the embedded Stripe
// emulator (one account per sandbox business, decisions 0035 and 0080). Each payer's time is
// from its request to its answer; a payment failed unless it answered 200 `succeeded`.
// Run alone: `npx tsx bench/sandbox-payments.ts` (PostgreSQL with DATABASE_URL, else PGlite);
//   BENCH_PAYERS (50), BENCH_ROUNDS (3, each on fresh sessions), BENCH_PORT (a free port).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./load";
import { cpuMs, createBenchSession, type KassaServer } from "./processes";

export type SandboxPaymentFigures = {
  payers: number;
  p50: number;
  p95: number;
  max: number;
  failed: number;
  failures: string[];
  /** Kassa's process CPU (user + system) from the first request to the last answer, per payment. */
  cpuMsPerPayment?: number;
};

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : NaN;

const nextYear = new Date().getUTCFullYear() + 1;

/** One payer on the hosted page: its card payment, timed; the reason it failed, if it did. */
async function pay(kassa: KassaServer, sessionId: string): Promise<{ ms: number; failure?: string }> {
  const started = performance.now();
  try {
    const response = await fetch(`${kassa.origin}/api/checkout/sessions/${sessionId}/pay`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "sec-fetch-site": "same-origin",
        "user-agent": "Mozilla/5.0 (bench payer)",
      },
      body: JSON.stringify({
        paymentMethodId: "stripe_credit",
        card: { number: "4242424242424242", expMonth: 12, expYear: nextYear, cvc: "123" },
      }),
    });
    const text = await response.text();
    const ms = performance.now() - started;
    const state = response.ok ? (JSON.parse(text) as { state?: string }).state : undefined;
    if (state === "succeeded") return { ms };
    return { ms, failure: `${response.status} ${text.slice(0, 200)}` };
  } catch (error) {
    return { ms: performance.now() - started, failure: String(error) };
  }
}

/** `payers` sessions made first, then all paid at once. */
export async function sandboxPaymentsRound(kassa: KassaServer, payers: number): Promise<SandboxPaymentFigures> {
  const run = `sandbox-pay-${Date.now()}`;
  const sessions: string[] = [];
  for (let i = 0; i < payers; i += 10) {
    const batch = Array.from({ length: Math.min(10, payers - i) }, (_, j) => createBenchSession(kassa, `${run}-${i + j}`));
    sessions.push(...(await Promise.all(batch)));
  }
  const cpuBefore = cpuMs(kassa.pid);
  const results = await Promise.all(sessions.map((id) => pay(kassa, id)));
  const cpuAfter = cpuMs(kassa.pid);
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  const failures = results.flatMap((r) => (r.failure ? [r.failure] : []));
  const cpuMsPerPayment = cpuBefore !== undefined && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / payers : undefined;
  return { payers, p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1) ?? NaN, failed: failures.length, failures, cpuMsPerPayment };
}

/** Medians of the rounds' p50 and p95, the failures of all of them. */
export function combine(rounds: SandboxPaymentFigures[]): SandboxPaymentFigures {
  return {
    payers: rounds[0]?.payers ?? 0,
    p50: median(rounds.map((r) => r.p50)),
    p95: median(rounds.map((r) => r.p95)),
    max: Math.max(...rounds.map((r) => r.max)),
    failed: rounds.reduce((n, r) => n + r.failed, 0),
    failures: rounds.flatMap((r) => r.failures),
    cpuMsPerPayment: rounds.every((r) => r.cpuMsPerPayment !== undefined) ? median(rounds.map((r) => r.cpuMsPerPayment!)) : undefined,
  };
}

const mark = (met: boolean) => (met ? "met" : "NOT met");
/** `warmUp`: the round before the counted ones, printed without the goal. */
export function describeSandboxPayments(label: string, f: SandboxPaymentFigures, warmUp = false): string {
  const goal = warmUp ? "warm-up, not counted" : `goal p50 ≤ 1000 ms and none failed: ${mark(f.p50 <= 1000 && f.failed === 0)}`;
  const failures = f.failed ? `\n    first failure: ${f.failures[0]}` : "";
  const cpu = f.cpuMsPerPayment === undefined ? "" : `, Kassa CPU ${f.cpuMsPerPayment.toFixed(1)} ms per payment`;
  return `  ${label.padEnd(11)} ${f.payers} at once: p50 ${f.p50.toFixed(0)} ms, p95 ${f.p95.toFixed(0)} ms, max ${f.max.toFixed(0)} ms, ${f.failed} failed${cpu} (${goal})${failures}`;
}

async function main() {
  const { buildIfNeeded } = await import("@/server/build");
  const { killAll, startKassa } = await import("./processes");
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const payers = Number(process.env.BENCH_PAYERS ?? 50);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined;
  buildIfNeeded(root);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-sandbox-pay-"));
  const databaseUrl = process.env.DATABASE_URL;
  try {
    const kassa = await startKassa(root, "Kassa", { databaseUrl, dataDir: path.join(scratch, "data"), port });
    try {
      // Warm-up, one round of as many payers, printed and not counted: a fresh server's first
      // payments load the payment path's modules, open the business's emulator account and run
      // before V8 has optimised the path (docs/benchmarks.md). The rounds measure a running server.
      console.log(describeSandboxPayments("warm-up", await sandboxPaymentsRound(kassa, payers), true));
      const results: SandboxPaymentFigures[] = [];
      for (let r = 1; r <= rounds; r++) {
        const load = os.loadavg()[0]!.toFixed(1);
        results.push(await sandboxPaymentsRound(kassa, payers));
        console.log(describeSandboxPayments(`round ${r}`, results.at(-1)!) + `; load ${load}`);
      }
      console.log(describeSandboxPayments(databaseUrl ? "PostgreSQL" : "PGlite", combine(results)));
    } finally {
      await kassa.stop();
    }
  } catch (error) {
    killAll();
    throw error;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
