import { randomBytes } from "node:crypto";
import os from "node:os";
import type { Db } from "@/db/client";
import type { JobKind } from "@/db/schema";
import { env, inngestEnabled } from "@/lib/env";
import { runHousekeeping } from "@/lib/housekeeping/run-housekeeping";
import { ensureInstanceHeartbeat } from "@/lib/instances/instance-heartbeat";
import { claimJobs, extendLeases, releaseJobs, type ClaimedJob } from "@/lib/jobs/claim-jobs";
import { defaultJobContext, type JobContext, type JobContextOverrides } from "@/lib/job-context";
import { registerLocalExecutor } from "@/lib/jobs/local-executors";
import { executeClaimedJob } from "@/lib/jobs/run-job";
import { markWorkerStopped, markWorkerTick } from "@/lib/health/worker-status";
import { log } from "@/lib/log";
import { reconcileOpenAttempts } from "@/lib/payments/reconcile-attempts";

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
};

export type WorkerStats = { claimed: number; finished: number; claims: number; peakRunning: number };

/** Webhook attempts: slots of their own, so slow receivers never hold up the other work (and the reverse). */
const webhookKinds: JobKind[] = ["deliver_webhook"];

type Lane = {
  capacity: number;
  kinds?: JobKind[];
  excludeKinds?: JobKind[];
  running: number;
  /** The last claim filled every free slot: more rows are probably due. */
  backlog: boolean;
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
  const pollIntervalMs = options.pollIntervalMs ?? e.JOBS_POLL_INTERVAL_MS;
  const leaseMs = options.leaseMs ?? e.JOBS_LEASE_SECONDS * 1000;
  const stopGraceMs = options.stopGraceMs ?? 15_000;
  const context: JobContext = defaultJobContext(options.context);

  const lanes: Lane[] = [];
  const wanted = options.kinds;
  if (!wanted || wanted.some((k) => webhookKinds.includes(k)))
    lanes.push({ capacity: webhookConcurrency, kinds: webhookKinds, running: 0, backlog: false });
  const others = wanted?.filter((k) => !webhookKinds.includes(k));
  if (!others || others.length)
    lanes.push({
      capacity: concurrency,
      ...(others ? { kinds: others } : { excludeKinds: webhookKinds }),
      running: 0,
      backlog: false,
    });
  const laneOf = (job: ClaimedJob) =>
    lanes.find((l) => (l.kinds ? l.kinds.includes(job.kind) : !l.excludeKinds!.includes(job.kind)))!;

  const active = new Map<string, { job: ClaimedJob; lane: Lane; done: Promise<void> }>();
  const stats: WorkerStats = { claimed: 0, finished: 0, claims: 0, peakRunning: 0 };
  let running = true;
  let wakeUp: (() => void) | null = null;
  let woken = false;
  /** New work may be due (a commit announced jobs, or the poll interval passed): every lane looks. */
  let fresh = true;
  /** A slot was freed: only lanes with a backlog claim again. */
  const wakeForSlot = () => {
    woken = true;
    wakeUp?.();
  };
  const wake = () => {
    fresh = true;
    wakeForSlot();
  };
  /** Waits for a wake-up or `ms`; answers whether the time ran out. */
  const idle = (ms: number) =>
    new Promise<boolean>((resolve) => {
      if (woken) {
        woken = false;
        return resolve(false);
      }
      const timer = setTimeout(() => done(true), ms);
      function done(timedOut = false) {
        clearTimeout(timer);
        wakeUp = null;
        woken = false;
        resolve(timedOut);
      }
      wakeUp = () => done();
    });

  const start = (job: ClaimedJob) => {
    const lane = laneOf(job);
    const done = executeClaimedJob(db, job, context)
      .then(() => undefined)
      .catch((error: unknown) =>
        log.error("job could not be recorded", { jobId: job.id, kind: job.kind, error }),
      )
      .finally(() => {
        stats.finished += 1;
        lane.running -= 1;
        active.delete(job.id);
        wakeForSlot();
      });
    stats.claimed += 1;
    lane.running += 1;
    active.set(job.id, { job, lane, done });
    stats.peakRunning = Math.max(stats.peakRunning, active.size);
  };

  const loop = (async () => {
    while (running) {
      markWorkerTick(); // readiness: background work is running (lib/health)
      // Each lane asks for its free slots. With a backlog, once a batch of them is free (each
      // claim is a round trip), or at once when new work was announced or the poll interval
      // passed (slow jobs free slots slowly). Without one, only then: a freed slot alone does
      // not make anything due.
      const announced = fresh;
      fresh = false;
      const asks = lanes.map((lane) => {
        const free = lane.capacity - lane.running;
        if (!lane.backlog && !announced) return 0;
        const batch = lane.backlog && !announced ? Math.max(1, Math.floor(lane.capacity / 4)) : 1;
        return free >= batch ? free : 0;
      });
      if (asks.some((n) => n > 0)) {
        let claimed: ClaimedJob[];
        try {
          stats.claims += 1;
          claimed = await claimJobs(db, {
            workerId: id,
            leaseMs,
            lanes: lanes.map((lane, i) => ({
              limit: asks[i]!,
              kinds: lane.kinds,
              excludeKinds: lane.excludeKinds,
            })),
          });
        } catch (error) {
          if (!running) break;
          log.error("claiming jobs failed", { workerId: id, error });
          await idle(pollIntervalMs * 4);
          fresh = true;
          continue;
        }
        // A claim that raced stop() still runs: stop() waits for (or releases) it.
        for (const job of claimed) start(job);
        lanes.forEach((lane, i) => {
          if (asks[i]! > 0) lane.backlog = claimed.filter((j) => laneOf(j) === lane).length === asks[i];
        });
      }
      if (await idle(pollIntervalMs)) fresh = true;
    }
  })();

  const heartbeat = setInterval(
    () => {
      const held = [...active.values()].map((a) => a.job);
      extendLeases(db, held, leaseMs).catch((error: unknown) =>
        log.warn("lease renewal failed", { workerId: id, error }),
      );
    },
    Math.max(1000, Math.floor(leaseMs / 3)),
  );
  heartbeat.unref();
  // Rows past their retention are pruned at start and on a tick (any instance may: lib/housekeeping).
  let pruning: Promise<void> = Promise.resolve();
  const prune = () => {
    pruning = runHousekeeping(db)
      .then((deleted) => log.info("housekeeping done", { workerId: id, deleted }))
      .catch((error: unknown) => log.warn("housekeeping failed", { workerId: id, error }));
  };
  const housekeeping = setInterval(
    prune,
    options.housekeepingIntervalMs ?? e.HOUSEKEEPING_INTERVAL_MINUTES * 60_000,
  );
  prune();
  housekeeping.unref();
  // This process is alive (instances), and payment attempts dead ones left open are settled from
  // their providers on a tick (any instance may, at once: settling is idempotent; decision 0025).
  ensureInstanceHeartbeat(db).catch((error: unknown) =>
    log.warn("instance registration failed", { workerId: id, error }),
  );
  let reconciling: Promise<void> | null = null;
  const reconcile = setInterval(
    () => {
      reconciling ??= reconcileOpenAttempts(db)
        .then((result) => {
          if (result.checked) log.info("reconciliation done", { workerId: id, ...result });
        })
        .catch((error: unknown) => log.warn("reconciliation failed", { workerId: id, error }))
        .finally(() => (reconciling = null));
    },
    options.reconcileIntervalMs ?? e.RECONCILE_INTERVAL_SECONDS * 1000,
  );
  reconcile.unref();

  const unregister = registerLocalExecutor({ wake, context });
  let stopped: Promise<void> | null = null;
  log.info("embedded worker started", { workerId: id, concurrency, webhookConcurrency });

  return {
    id,
    get running() {
      return running;
    },
    stats,
    wake,
    stop: () =>
      (stopped ??= (async () => {
        running = false;
        markWorkerStopped();
        unregister();
        wake();
        await loop;
        const pending = [...active.values()];
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.all(pending.map((a) => a.done)),
          new Promise((resolve) => (timer = setTimeout(resolve, stopGraceMs))),
        ]);
        clearTimeout(timer);
        const leftover = [...active.values()].map((a) => a.job);
        if (leftover.length) {
          log.warn("releasing jobs still running at stop", { workerId: id, jobs: leftover.map((j) => j.id) });
          await releaseJobs(db, leftover);
        }
        clearInterval(heartbeat);
        clearInterval(housekeeping);
        clearInterval(reconcile);
        await pruning;
        await reconciling;
        log.info("embedded worker stopped", { workerId: id });
      })()),
  };
}
