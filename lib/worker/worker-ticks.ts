import type { Db } from "@/db/client";
import { runHousekeeping } from "@/lib/housekeeping/run-housekeeping";
import { ensureInstanceHeartbeat } from "@/lib/instances/instance-heartbeat";
import { extendLeases } from "@/lib/jobs/claim-jobs";
import { log } from "@/lib/log";
import { reconcileOpenAttempts } from "@/lib/payments/reconcile-attempts";
import type { WorkerCore } from "./claim-loop";

/** A background tick of the worker: stopping clears its timer and waits for a run in progress. */
export type WorkerTick = { stop(): Promise<void> };

/** Renews the leases of the rows being worked on, a few times per lease. */
export function startLeaseHeartbeat(core: WorkerCore): WorkerTick {
  const heartbeat = setInterval(
    () => {
      const held = [...core.active.values()].map((a) => a.job);
      extendLeases(core.db, held, core.leaseMs).catch((error: unknown) =>
        log.warn("lease renewal failed", { workerId: core.id, error }),
      );
    },
    Math.max(1000, Math.floor(core.leaseMs / 3)),
  );
  heartbeat.unref();
  return { stop: async () => clearInterval(heartbeat) };
}

/** Rows past their retention are pruned at start and on a tick (any instance may: lib/housekeeping). */
export function startHousekeeping(db: Db, workerId: string, intervalMs: number): WorkerTick {
  let pruning: Promise<void> = Promise.resolve();
  const prune = () => {
    pruning = runHousekeeping(db)
      .then((deleted) => log.info("housekeeping done", { workerId, deleted }))
      .catch((error: unknown) => log.warn("housekeeping failed", { workerId, error }));
  };
  const housekeeping = setInterval(prune, intervalMs);
  prune();
  housekeeping.unref();
  return {
    stop: async () => {
      clearInterval(housekeeping);
      await pruning;
    },
  };
}

/**
 * This process is alive (instances), and payment attempts dead ones left open are settled from
 * their providers on a tick (any instance may, at once: settling is idempotent; decision 0025).
 */
export function startReconciling(db: Db, workerId: string, intervalMs: number): WorkerTick {
  ensureInstanceHeartbeat(db).catch((error: unknown) =>
    log.warn("instance registration failed", { workerId, error }),
  );
  let reconciling: Promise<void> | null = null;
  const reconcile = setInterval(() => {
    reconciling ??= reconcileOpenAttempts(db)
      .then((result) => {
        if (result.checked) log.info("reconciliation done", { workerId, ...result });
      })
      .catch((error: unknown) => log.warn("reconciliation failed", { workerId, error }))
      .finally(() => (reconciling = null));
  }, intervalMs);
  reconcile.unref();
  return {
    stop: async () => {
      clearInterval(reconcile);
      await reconciling;
    },
  };
}
