import type { Db } from "@/db/client";
import { env } from "@/lib/env";
import { verifyLedgerSinceCheckpoint } from "@/lib/ledger/verify-ledger-since";
import { log } from "@/lib/log";
import { metrics } from "@/lib/metrics/registry";

/**
 * Verifies the ledger once, since the checkpoint (the whole ledger once every
 * LEDGER_FULL_VERIFY_HOURS: decision 0079), and records the result in the kassa_ledger_verify_* gauges.
 */
export async function recordLedgerVerification(db: Db): Promise<void> {
  const m = metrics();
  const started = performance.now();
  try {
    const report = await verifyLedgerSinceCheckpoint(db, { fullPassEveryMs: env().LEDGER_FULL_VERIFY_HOURS * 3_600_000 });
    m.ledgerVerifyOk.set(report.ok ? 1 : 0);
    m.ledgerVerifyProblems.set(report.problems.length);
    if (!report.ok)
      log.error("ledger verification found problems", { mode: report.mode, problems: report.problems.slice(0, 20) });
  } catch (error) {
    // Not knowing counts as failing: the alert on kassa_ledger_verify_ok fires either way.
    m.ledgerVerifyOk.set(0);
    log.warn("ledger verification could not run", { error });
  } finally {
    m.ledgerVerifyDuration.set((performance.now() - started) / 1000);
    m.ledgerVerifyLastRun.set(Date.now() / 1000);
  }
}

/**
 * Verifies at start and every LEDGER_VERIFY_INTERVAL_MINUTES (0: never), one run at a time, in each
 * server process (one snapshot; the checkpoint is shared, each instance's gauges stand on their own).
 * Answers a stop function that waits for a run under way.
 */
export function startLedgerVerification(db: Db, intervalMs = env().LEDGER_VERIFY_INTERVAL_MINUTES * 60_000) {
  if (intervalMs <= 0) return async () => {};
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= recordLedgerVerification(db).finally(() => (running = null));
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  run();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
