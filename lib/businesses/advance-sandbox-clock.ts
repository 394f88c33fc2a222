import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, jobs, type Business } from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { UnauthorizedError } from "@/lib/errors";
import { defaultJobContext, type JobContext } from "@/lib/job-context";
import { localExecutorContext } from "@/lib/jobs/local-executors";
import { runDueJobs } from "@/lib/jobs/run-due-jobs";
import { log } from "@/lib/log";
import { advanceSandboxTestClock } from "@/lib/providers/stripe/advance-sandbox-test-clock";

/** Upper bound of one advance: 5 years. */
export const maxClockAdvanceSeconds = 5 * 365 * 24 * 60 * 60;

/**
 * POST /sandbox/clock/advance: moves a sandbox business's clock forward, then its Stripe test
 * clock (if it has one) to the same time, then runs everything due for that business by its new
 * time (expiries, webhook attempts, the provider events of the test clock's renewals) before
 * returning. Jobs on the business's clock move earlier in real time by the same amount.
 */
export async function advanceSandboxClock(
  db: Db,
  business: Pick<Business, "id" | "mode">,
  seconds: number,
  ctx: JobContext = localExecutorContext() ?? defaultJobContext(),
): Promise<{ now: Date; jobsRun: number }> {
  if (business.mode !== "sandbox") throw new UnauthorizedError("clock advance on a live business");
  const ms = seconds * 1000;
  const offset = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(businesses)
      .set({ clockOffsetMs: sql`${businesses.clockOffsetMs} + ${ms}` })
      .where(and(eq(businesses.id, business.id), eq(businesses.mode, "sandbox")))
      .returning({ clockOffsetMs: businesses.clockOffsetMs });
    if (!row) throw new UnauthorizedError("clock advance on a missing or live business");
    await tx
      .update(jobs)
      .set({ runAt: sql`${jobs.runAt} - ${ms}::float8 * interval '1 millisecond'`, updatedAt: sql`now()` })
      .where(and(eq(jobs.businessId, business.id), eq(jobs.businessClock, true), eq(jobs.status, "pending")));
    return row.clockOffsetMs;
  });
  const now = businessNow({ clockOffsetMs: offset });
  // The business's clock has moved either way; a test clock left behind catches up at the next
  // advance (its target is absolute).
  await advanceSandboxTestClock(db, business, now).catch((error: unknown) =>
    log.error("sandbox clock: the Stripe test clock did not advance", { businessId: business.id, error }),
  );
  const jobsRun = await runDueJobs(db, { businessId: business.id, ctx });
  return { now, jobsRun };
}
