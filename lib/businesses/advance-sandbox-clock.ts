import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, jobs, type Business } from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { ProviderError, UnauthorizedError } from "@/lib/errors";
import { defaultJobContext, type JobContext } from "@/lib/job-context";
import { localExecutorContext } from "@/lib/jobs/local-executors";
import { runDueJobs } from "@/lib/jobs/run-due-jobs";
import { log } from "@/lib/log";
import { advanceSandboxDisputes } from "@/lib/providers/stripe/advance-sandbox-disputes";
import { advanceSandboxTestClock } from "@/lib/providers/stripe/advance-sandbox-test-clock";

/** Upper bound of one advance: 5 years. */
export const maxClockAdvanceSeconds = 5 * 365 * 24 * 60 * 60;

/**
 * POST /sandbox/clock/advance: moves a sandbox business's Stripe test clock (if it has one) to the
 * business's time `seconds` ahead, then the business's clock, then runs everything due for that
 * business by its new time (expiries, webhook attempts, the provider events of the test clock's
 * renewals) before returning. Jobs on the business's clock move earlier in real time by the same
 * amount. The test clock goes first: if it cannot move, the advance fails (502) and the
 * business's clock stays where it was, so the two never disagree.
 */
export async function advanceSandboxClock(
  db: Db,
  business: Pick<Business, "id" | "mode">,
  seconds: number,
  ctx: JobContext = localExecutorContext() ?? defaultJobContext(),
): Promise<{ now: Date; jobsRun: number }> {
  if (business.mode !== "sandbox") throw new UnauthorizedError("clock advance on a live business");
  const ms = seconds * 1000;
  const [current] = await db
    .select({ clockOffsetMs: businesses.clockOffsetMs })
    .from(businesses)
    .where(and(eq(businesses.id, business.id), eq(businesses.mode, "sandbox")));
  if (!current) throw new UnauthorizedError("clock advance on a missing or live business");
  const target = new Date(businessNow(current).getTime() + ms);
  await moveTestClock(db, business, target);
  await advanceSandboxDisputes(business, seconds);
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
  // Another advance ran at the same time: the test clock catches up with the sum of both (a
  // failure here is left to the next advance, whose target is absolute).
  if (offset !== current.clockOffsetMs + ms)
    await advanceSandboxTestClock(db, business, businessNow({ clockOffsetMs: offset })).catch(
      (error: unknown) =>
        log.error("sandbox clock: the Stripe test clock did not catch up", {
          businessId: business.id,
          error,
        }),
    );
  const jobsRun = await runDueJobs(db, { businessId: business.id, ctx });
  return {
    now: offset === current.clockOffsetMs + ms ? target : businessNow({ clockOffsetMs: offset }),
    jobsRun,
  };
}

/** The business's Stripe test clock to `to`, or a 502 saying the sandbox clock did not move. */
async function moveTestClock(db: Db, business: Pick<Business, "id" | "mode">, to: Date): Promise<void> {
  try {
    await advanceSandboxTestClock(db, business, to);
  } catch (error) {
    log.error("sandbox clock: the Stripe test clock did not advance", { businessId: business.id, error });
    const cause = error instanceof Error ? error.message : String(error);
    throw new ProviderError(
      `The Stripe test clock did not move (${cause}); the business's clock is unchanged: retry the advance`,
      error instanceof ProviderError ? error.errorType : "provider_error",
    );
  }
}
