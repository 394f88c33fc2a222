import { SpanStatusCode } from "@opentelemetry/api";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, jobs } from "@/db/schema";
import { log, withLogContext } from "@/lib/log";
import { parseDbTime } from "@/lib/time";
import { inSpan } from "@/lib/tracing";
import { claimJobs, type ClaimedJob } from "./claim-jobs";
import type { JobContext } from "@/lib/job-context";
import { jobFailed, jobHandler } from "./registry";
import type { JobOutcome } from "./job-outcome";

/** Backoff after an unexpected error: 30 s, 1 min, 2 min, ... at most 1 h. */
export function errorBackoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/**
 * Runs a claimed row through its handler and records the outcome, fenced by the lock token: a
 * worker whose lease ran out (and whose row someone else claimed) changes nothing.
 */
export async function executeClaimedJob(db: Db, job: ClaimedJob, ctx: JobContext): Promise<FinishedJob> {
  // Every line the run logs carries the job (and its business), as a request's carry its id.
  // One span per run when traces are exported (docs/operations.md#traces), its outcome on it.
  const attributes = {
    "kassa.job_id": job.id,
    "kassa.job_kind": job.kind,
    "kassa.job_attempt": job.attempts,
  };
  return withLogContext({ jobId: job.id, kind: job.kind, businessId: job.businessId ?? undefined }, () =>
    inSpan(
      `job ${job.kind}`,
      job.businessId ? { ...attributes, "kassa.business_id": job.businessId } : attributes,
      async (span) => {
        const finished = await runClaimedJob(db, job, ctx);
        span.setAttribute("kassa.job_outcome", finished.status);
        if (finished.status === "failed") span.setStatus({ code: SpanStatusCode.ERROR });
        return finished;
      },
    ),
  );
}

async function runClaimedJob(db: Db, job: ClaimedJob, ctx: JobContext): Promise<FinishedJob> {
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
    jobFailed(job.kind, outcome.status);
  }
  if (outcome.status === "retry" && job.attempts >= job.maxAttempts) {
    outcome = {
      status: "failed",
      error: `gave up after ${job.attempts} attempts${outcome.note ? `: ${outcome.note}` : ""}`,
    };
    // A handler that kept asking for another try and ran out of them: a failure too.
    log.error("job gave up", { jobId: job.id, kind: job.kind, attempts: job.attempts, error: outcome.error });
    jobFailed(job.kind, "failed");
  }
  if (outcome.status === "done" && outcome.finished) return outcome;
  const runAt = await finishJob(db, job, outcome);
  if (outcome.status !== "retry") return outcome;
  return { ...outcome, runAt: runAt ?? outcome.at };
}

/** The outcome as recorded; a retry carries the real time its row is due again. */
export type FinishedJob =
  Exclude<JobOutcome, { status: "retry" }> | (Extract<JobOutcome, { status: "retry" }> & { runAt: Date });

/**
 * What finishJob writes for a row done, as one assignment list: a handler that records its work
 * in one statement can finish its row there too (`update jobs set ${jobDoneSql} where id = … and
 * lock_token = …`, then `{ status: "done", finished: true }`).
 */
export const jobDoneSql = sql`status = 'done', finished_at = now(), last_error = null,
  locked_by = null, lock_token = null, locked_until = null, updated_at = now()`;

/** Records the outcome; for a retry, answers the real time the row is due again. */
async function finishJob(db: Db, job: ClaimedJob, outcome: JobOutcome): Promise<Date | null> {
  const unlock = { lockedBy: null, lockToken: null, lockedUntil: null, updatedAt: sql`now()` };
  const fenced = and(eq(jobs.id, job.id), eq(jobs.lockToken, job.lockToken));
  if (outcome.status !== "retry") {
    const set =
      outcome.status === "done"
        ? { ...unlock, status: "done" as const, finishedAt: sql`now()`, lastError: null }
        : { ...unlock, status: "failed" as const, finishedAt: sql`now()`, lastError: outcome.error };
    await db.update(jobs).set(set).where(fenced);
    return null;
  }
  const retry = { ...unlock, status: "pending" as const, lastError: outcome.note ?? null };
  if (outcome.clock !== "business" || !job.businessId) {
    await db
      .update(jobs)
      .set({ ...retry, runAt: outcome.at.toISOString() })
      .where(fenced);
    return outcome.at;
  }
  // A time on the business's clock becomes real time by taking off the clock's offset. The
  // business row is share-locked: an advance of the clock either commits first (and its new
  // offset is used here) or waits for this row to be pending again (and moves it earlier).
  return db.transaction(async (tx) => {
    const [business] = await tx
      .select({ clockOffsetMs: businesses.clockOffsetMs })
      .from(businesses)
      .where(eq(businesses.id, job.businessId!))
      .for("share");
    const runAt = new Date(outcome.at.getTime() - (business?.clockOffsetMs ?? 0));
    await tx
      .update(jobs)
      .set({ ...retry, runAt: runAt.toISOString(), businessClock: true })
      .where(fenced);
    return runAt;
  });
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
      return { status: "retry", at: outcome.runAt.toISOString(), note: outcome.note };
    if (outcome.status === "failed") return { status: "failed", note: outcome.error };
    return { status: "done", note: outcome.note };
  }
  const [row] = await db
    .select({ status: jobs.status, runAt: jobs.runAt })
    .from(jobs)
    .where(eq(jobs.id, jobId));
  if (!row) return { status: "missing" };
  if (row.status === "pending") {
    const at = parseDbTime(row.runAt);
    // Due but not claimed: its business's sandbox clock is advancing (the advance runs it), or
    // another worker's claim holds it. Either way not this run's to wait for.
    if (at.getTime() <= Date.now()) return { status: "busy", note: "due, and held by another run" };
    return { status: "not_due", at: at.toISOString() };
  }
  if (row.status === "running") return { status: "busy" };
  return { status: row.status };
}
