import type { Db } from "@/db/client";
import { markWorkerTick } from "@/lib/health/worker-status";
import type { JobContext } from "@/lib/job-context";
import { claimJobs, type ClaimedJob } from "@/lib/jobs/claim-jobs";
import { executeClaimedJob } from "@/lib/jobs/run-job";
import { log } from "@/lib/log";
import type { WakeSignal } from "./wake-signal";
import { claimLanes, laneAsks, laneOf, noteBacklogs, type Lane } from "./worker-lanes";

export type WorkerStats = { claimed: number; finished: number; claims: number; peakRunning: number };

export type ActiveJob = { job: ClaimedJob; lane: Lane; done: Promise<void> };

/** What the phases of one embedded worker share. */
export type WorkerCore = {
  db: Db;
  id: string;
  leaseMs: number;
  context: JobContext;
  lanes: Lane[];
  /** Jobs claimed and not finished yet, by id. */
  active: Map<string, ActiveJob>;
  stats: WorkerStats;
  signal: WakeSignal;
  /** False once stop() began: no more claims. */
  running(): boolean;
  /** True while claims must wait (the embedded database's disk under its floor). */
  paused?: () => Promise<boolean>;
};

/** Runs a claimed job in its lane's slot; the slot frees (and wakes the loop) when it finishes. */
function startJob(core: WorkerCore, job: ClaimedJob) {
  const { active, stats } = core;
  const lane = laneOf(core.lanes, job);
  const done = executeClaimedJob(core.db, job, core.context)
    .then(() => undefined)
    .catch((error: unknown) =>
      log.error("job could not be recorded", { jobId: job.id, kind: job.kind, error }),
    )
    .finally(() => {
      stats.finished += 1;
      lane.running -= 1;
      active.delete(job.id);
      core.signal.wakeForSlot();
    });
  stats.claimed += 1;
  lane.running += 1;
  active.set(job.id, { job, lane, done });
  stats.peakRunning = Math.max(stats.peakRunning, active.size);
}

/** One claim for every lane's asks; null when it failed (logged). */
async function claimOnce(core: WorkerCore, asks: number[]): Promise<ClaimedJob[] | null> {
  try {
    core.stats.claims += 1;
    return await claimJobs(core.db, {
      workerId: core.id,
      leaseMs: core.leaseMs,
      lanes: claimLanes(core.lanes, asks),
    });
  } catch (error) {
    if (core.running()) log.error("claiming jobs failed", { workerId: core.id, error });
    return null;
  }
}

/** Claims and starts due jobs until stop(); resolves once it makes no more claims. */
export async function runClaimLoop(core: WorkerCore, pollIntervalMs: number): Promise<void> {
  const { lanes, signal } = core;
  while (core.running()) {
    markWorkerTick(); // readiness: background work is running (lib/health)
    const asks = laneAsks(lanes, signal.takeFresh());
    const wanted = asks.some((n) => n > 0);
    if (wanted && (await core.paused?.().catch(() => false))) {
      // Due work stays due; the disk's crossing of its floor is logged where it is read.
      await signal.idle(pollIntervalMs * 4);
      signal.markFresh();
      continue;
    }
    if (wanted) {
      const claimed = await claimOnce(core, asks);
      if (!claimed) {
        if (!core.running()) break;
        await signal.idle(pollIntervalMs * 4);
        signal.markFresh();
        continue;
      }
      // A claim that raced stop() still runs: stop() waits for (or releases) it.
      for (const job of claimed) startJob(core, job);
      noteBacklogs(lanes, asks, claimed);
    }
    if (await signal.idle(pollIntervalMs)) signal.markFresh();
  }
}
