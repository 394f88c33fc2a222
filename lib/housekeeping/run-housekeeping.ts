import type { Db } from "@/db/client";
import { env } from "@/lib/env";
import { pruneIdempotencyKeys } from "@/lib/idempotency/run-idempotent";
import { purgeFinishedJobs } from "@/lib/jobs/purge-finished-jobs";
import { pruneRateLimits } from "@/lib/rate-limit/prune-rate-limits";

export type HousekeepingResult = { idempotencyKeys: number; finishedJobs: number; rateLimits: number };

const hourMs = 3_600_000;

/**
 * Deletes what is past its retention (lib/env.ts): idempotency keys, finished outbox rows and
 * expired rate-limit counters. Plain DELETEs by age, so any number of instances may run it at once
 * (the embedded worker's tick, or the Inngest cron): a row deleted twice is deleted once.
 */
export async function runHousekeeping(db: Db): Promise<HousekeepingResult> {
  const e = env();
  const idempotencyKeys = await pruneIdempotencyKeys(
    db,
    new Date(Date.now() - e.IDEMPOTENCY_KEY_RETENTION_HOURS * hourMs),
  );
  const finishedJobs = await purgeFinishedJobs(db, e.FINISHED_JOB_RETENTION_HOURS * hourMs);
  const rateLimits = await pruneRateLimits(db, e.RATE_LIMIT_RETENTION_HOURS * hourMs);
  return { idempotencyKeys, finishedJobs, rateLimits };
}
