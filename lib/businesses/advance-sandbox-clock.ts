import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, jobs, type Business } from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { UnauthorizedError } from "@/lib/errors";
import { defaultJobContext, type JobContext } from "./context";
import { localExecutorContext } from "./local-executors";
import { runDueJobs } from "./run-due-jobs";

/** Upper bound of one advance: 5 years. */
export const maxClockAdvanceSeconds = 5 * 365 * 24 * 60 * 60;

/**
 * POST /sandbox/clock/advance: moves a sandbox business's clock forward, then runs everything due
 * for that business by its new time before returning. Jobs on the business's clock (expiries)
 * move earlier in real time by the same amount; webhook retries keep their real-time schedule.
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
  const jobsRun = await runDueJobs(db, { businessId: business.id, ctx });
  return { now: businessNow({ clockOffsetMs: offset }), jobsRun };
}
