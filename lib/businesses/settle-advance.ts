import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs, type Business } from "@/db/schema";
import { ClockWorkPendingError } from "@/lib/errors";
import type { JobContext } from "@/lib/job-context";
import { runDueJobs } from "@/lib/jobs/run-due-jobs";

/**
 * Step 4 of a sandbox clock advance (./advance-sandbox-clock.ts): rounds of "read the provider's
 * new events, run every job due" until a round finds no new event and runs no job. A job can call
 * the provider (a renewal's receipt no, a refund's cancellation at Stripe yes), whose events the
 * next round reads. Answers how many jobs ran; past `deadline`, a 503 naming what is still due.
 */
export async function settleAdvance(
  db: Db,
  business: Pick<Business, "id">,
  options: { ctx: JobContext; deadline: number; boundMs: number; pull: () => Promise<number> },
): Promise<number> {
  let ran = 0;
  while (Date.now() < options.deadline) {
    const pulled = await options.pull();
    const jobsRun = await runDueJobs(db, {
      businessId: business.id,
      ctx: options.ctx,
      deadlineMs: Math.max(0, options.deadline - Date.now()),
    });
    ran += jobsRun;
    if (pulled === 0 && jobsRun === 0 && !(await stillDue(db, business.id)).length) return ran;
  }
  const pending = await stillDue(db, business.id);
  throw new ClockWorkPendingError(
    `The clock moved, but work due by its new time was still running after ${options.boundMs / 1000} s: ${pending.map((p) => `${p.n} ${p.kind}`).join(", ") || "the provider's events"}. It goes on in the background; read the objects again shortly`,
  );
}

/** The business's jobs due now or running, by kind. */
async function stillDue(db: Db, businessId: string) {
  return db
    .select({ kind: jobs.kind, n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(
      and(
        eq(jobs.businessId, businessId),
        sql`(${jobs.status} = 'running' or (${jobs.status} = 'pending' and ${jobs.runAt} <= now()))`,
      ),
    )
    .groupBy(jobs.kind);
}
