import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs } from "@/db/schema";
import { log } from "@/lib/log";
import { parseDbTime } from "@/lib/time";
import { claimJobs, type ClaimedJob } from "./claim-jobs";
import type { JobContext } from "./context";
import { jobHandler } from "./handlers";
import type { JobOutcome } from "./job-outcome";

/** Backoff after an unexpected error: 30 s, 1 min, 2 min, ... at most 1 h. */
export function errorBackoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/**
 * Runs a claimed row through its handler and records the outcome, fenced by the lock token: a
 * worker whose lease ran out (and whose row someone else claimed) changes nothing.
 */
export async function executeClaimedJob(db: Db, job: ClaimedJob, ctx: JobContext): Promise<JobOutcome> {
  let outcome: JobOutcome;
  try {
    outcome = await jobHandler(job.kind)(db, job, ctx);
  } catch (error) {
    log.warn("job failed", { jobId: job.id, kind: job.kind, attempts: job.attempts, error });
    const message = error instanceof Error ? error.message : String(error);
    outcome =
      job.attempts >= job.maxAttempts
        ? { status: "failed", error: message }
        : { status: "retry", at: new Date(Date.now() + errorBackoffMs(job.attempts)), note: message };
  }
  if (outcome.status === "retry" && job.attempts >= job.maxAttempts)
    outcome = {
      status: "failed",
      error: `gave up after ${job.attempts} attempts${outcome.note ? `: ${outcome.note}` : ""}`,
    };
  await finishJob(db, job, outcome);
  return outcome;
}

async function finishJob(db: Db, job: ClaimedJob, outcome: JobOutcome): Promise<void> {
  const unlock = { lockedBy: null, lockToken: null, lockedUntil: null, updatedAt: sql`now()` };
  const set =
    outcome.status === "retry"
      ? {
          ...unlock,
          status: "pending" as const,
          runAt: outcome.at.toISOString(),
          lastError: outcome.note ?? null,
        }
      : outcome.status === "done"
        ? { ...unlock, status: "done" as const, finishedAt: sql`now()`, lastError: null }
        : { ...unlock, status: "failed" as const, finishedAt: sql`now()`, lastError: outcome.error };
  await db
    .update(jobs)
    .set(set)
    .where(and(eq(jobs.id, job.id), eq(jobs.lockToken, job.lockToken)));
}

/** JSON-friendly result of running one named row (what an Inngest step returns). */
export type RunJobResult =
  | { status: "done" | "failed" | "missing" | "busy"; note?: string }
  | { status: "retry" | "not_due"; at: string; note?: string };

/**
 * Runs one named row if it is due and free; otherwise says why not. Used by Inngest functions:
 * an event delivered twice, or racing the embedded worker, runs the row at most once.
 */
export async function runJobById(
  db: Db,
  jobId: string,
  ctx: JobContext,
  options: { workerId?: string; leaseMs?: number } = {},
): Promise<RunJobResult> {
  const [claimed] = await claimJobs(db, {
    workerId: options.workerId ?? "inngest",
    limit: 1,
    leaseMs: options.leaseMs ?? 60_000,
    jobId,
  });
  if (claimed) {
    const outcome = await executeClaimedJob(db, claimed, ctx);
    if (outcome.status === "retry")
      return { status: "retry", at: outcome.at.toISOString(), note: outcome.note };
    if (outcome.status === "failed") return { status: "failed", note: outcome.error };
    return { status: "done", note: outcome.note };
  }
  const [row] = await db
    .select({ status: jobs.status, runAt: jobs.runAt })
    .from(jobs)
    .where(eq(jobs.id, jobId));
  if (!row) return { status: "missing" };
  if (row.status === "pending") return { status: "not_due", at: parseDbTime(row.runAt).toISOString() };
  if (row.status === "running") return { status: "busy" };
  return { status: row.status };
}
