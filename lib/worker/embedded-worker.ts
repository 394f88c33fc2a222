import { randomBytes } from "node:crypto";
import os from "node:os";
import type { Db } from "@/db/client";
import type { JobKind } from "@/db/schema";
import { env, inngestEnabled } from "@/lib/env";
import { markWorkerStopped } from "@/lib/health/worker-status";
import { defaultJobContext, type JobContextOverrides } from "@/lib/job-context";
import { registerLocalExecutor } from "@/lib/jobs/local-executors";
import { log } from "@/lib/log";
import { runClaimLoop, type WorkerCore, type WorkerStats } from "./claim-loop";
import { finishOrRelease } from "./release-at-stop";
import { createWakeSignal } from "./wake-signal";
import { buildLanes } from "./worker-lanes";
import { startHousekeeping, startLeaseHeartbeat, startReconciling } from "./worker-ticks";

export type { WorkerStats } from "./claim-loop";

export type EmbeddedWorkerOptions = {
  /** Jobs other than webhook attempts run at once (JOBS_CONCURRENCY, 8). */
  concurrency?: number;
  /** Webhook attempts in flight at once (WEBHOOK_CONCURRENCY, 32), in slots of their own. */
  webhookConcurrency?: number;
  /** Idle poll interval (JOBS_POLL_INTERVAL_MS, 250 ms); a commit through transactionWithJobs wakes it at once. */
  pollIntervalMs?: number;
  /** Lease of a claimed row (JOBS_LEASE_SECONDS, 60 s), renewed while the job runs. */
  leaseMs?: number;
  /** How long stop() waits for running jobs before releasing them (15 s: above the 10 s webhook timeout). */
  stopGraceMs?: number;
  workerId?: string;
  /** How often rows past their retention are pruned (HOUSEKEEPING_INTERVAL_MINUTES, 60 min). */
  housekeepingIntervalMs?: number;
  /** How often payment attempts dead processes left open are reconciled (RECONCILE_INTERVAL_SECONDS, 30 s). */
  reconcileIntervalMs?: number;
  /** Handler settings: compressed webhook schedule, DNS, ... (tests). */
  context?: JobContextOverrides;
  kinds?: JobKind[];
  /** Run even when Inngest is configured (tests). */
  force?: boolean;
  /**
   * Claims nothing while this answers true, asked before each claim: the server passes the embedded
   * database's disk floor (decision 0067), so jobs write nothing PGlite may not survive either.
   */
  pauseWhen?: () => Promise<boolean>;
};

export type EmbeddedWorker = {
  readonly id: string;
  /** False when Inngest is configured and the worker did not start. */
  readonly running: boolean;
  /**
   * Jobs this worker claimed and finished running so far, how many claim statements it made, and
   * the most jobs it ever had running at once.
   */
  readonly stats: WorkerStats;
  /** Look for due work now. */
  wake(): void;
  /**
   * Stops claiming, waits for running jobs (up to the grace period) and releases any still
   * running after it, so another worker takes them at once. Resolves when nothing is held.
   */
  stop(): Promise<void>;
};

/**
 * The default executor: polls the outbox, claims due rows (FOR UPDATE SKIP LOCKED, so several
 * instances can share one database) and runs at most `webhookConcurrency` webhook attempts and
 * `concurrency` other jobs at a time. One statement claims for both. Working through a backlog,
 * it claims in batches (a quarter of a lane's slots free, or the poll interval passed) rather
 * than one row per finished job. A row held by a worker that died is claimed again once its
 * lease runs out.
 *
 * Wiring (server/main.ts): `const worker = startEmbeddedWorker(handle.db);` after the database is
 * ready, and `await worker.stop();` on SIGTERM/SIGINT before closing the database.
 */
export function startEmbeddedWorker(db: Db, options: EmbeddedWorkerOptions = {}): EmbeddedWorker {
  const e = env();
  const id = options.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  if (inngestEnabled() && !options.force) {
    log.info("Inngest is configured: the embedded worker stays off", { workerId: id });
    const stats = { claimed: 0, finished: 0, claims: 0, peakRunning: 0 };
    return { id, running: false, stats, wake: () => {}, stop: async () => {} };
  }
  const concurrency = options.concurrency ?? e.JOBS_CONCURRENCY;
  const webhookConcurrency = options.webhookConcurrency ?? e.WEBHOOK_CONCURRENCY;
  let running = true;
  const core: WorkerCore = {
    db,
    id,
    leaseMs: options.leaseMs ?? e.JOBS_LEASE_SECONDS * 1000,
    context: defaultJobContext(options.context),
    lanes: buildLanes(options.kinds, { webhooks: webhookConcurrency, others: concurrency }),
    active: new Map(),
    stats: { claimed: 0, finished: 0, claims: 0, peakRunning: 0 },
    signal: createWakeSignal(),
    running: () => running,
    paused: options.pauseWhen,
  };
  const loop = runClaimLoop(core, options.pollIntervalMs ?? e.JOBS_POLL_INTERVAL_MS);
  const ticks = [
    startLeaseHeartbeat(core),
    startHousekeeping(db, id, options.housekeepingIntervalMs ?? e.HOUSEKEEPING_INTERVAL_MINUTES * 60_000),
    startReconciling(db, id, options.reconcileIntervalMs ?? e.RECONCILE_INTERVAL_SECONDS * 1000),
  ];
  const wake = () => core.signal.wake();
  const unregister = registerLocalExecutor({ wake, context: core.context });
  let stopped: Promise<void> | null = null;
  log.info("embedded worker started", { workerId: id, concurrency, webhookConcurrency });

  return {
    id,
    get running() {
      return running;
    },
    stats: core.stats,
    wake,
    stop: () =>
      (stopped ??= (async () => {
        running = false;
        markWorkerStopped();
        unregister();
        wake();
        await loop;
        await finishOrRelease(core, options.stopGraceMs ?? 15_000);
        await Promise.all(ticks.map((tick) => tick.stop()));
        log.info("embedded worker stopped", { workerId: id });
      })()),
  };
}
