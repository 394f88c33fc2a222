import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, jobs, type Business } from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { ProviderError, UnauthorizedError } from "@/lib/errors";
import { defaultJobContext, type JobContext } from "@/lib/job-context";
import { localExecutorContext } from "@/lib/jobs/local-executors";
import { log } from "@/lib/log";
import { type EventCursor, pullStripeEvents, stripeEventCursor } from "@/lib/payments/pull-stripe-events";
import { advanceSandboxDisputes } from "@/lib/providers/stripe/advance-sandbox-disputes";
import { advanceSandboxTestClock } from "@/lib/providers/stripe/advance-sandbox-test-clock";
import { settleAdvance } from "./settle-advance";

/** Upper bound of one advance: 5 years. */
export const maxClockAdvanceSeconds = 5 * 365 * 24 * 60 * 60;

/** How long an advance may take in all (the test clock, then the work it causes): then 503. */
export const clockAdvanceBoundMs = 120_000;

type SandboxBusiness = Pick<Business, "id" | "mode">;

/**
 * POST /sandbox/clock/advance: moves a sandbox business's clock `seconds` ahead and answers once
 * the work due by the new time has run (DESIGN's automation contract), whatever the load:
 *
 * 1. The business is marked as advancing: background workers leave its jobs alone (claimJobs), so
 *    nothing the advance causes runs, or is stamped, by the clock from before it.
 * 2. Its Stripe test clock (if it has one) moves to the new time and reads `ready`: the emulator has
 *    run the renewals, retries and period ends. The test clock goes first: if it cannot move, the
 *    advance fails (502) and the business's clock stays where it was, so the two never disagree.
 * 3. The business's clock moves; jobs on its clock move earlier in real time by the same amount.
 * 4. settleAdvance: the provider's events are read from its account (a webhook still on its way
 *    changes nothing) and everything due runs, round after round, until a round finds nothing new:
 *    renewals, receipts and webhooks are stamped with the new time. `jobsRun` counts what ran.
 *    Work still pending at the bound answers 503 `clock_work_pending`, saying what.
 */
export async function advanceSandboxClock(
  db: Db,
  business: SandboxBusiness,
  seconds: number,
  ctx: JobContext = localExecutorContext() ?? defaultJobContext(),
  boundMs: number = clockAdvanceBoundMs,
): Promise<{ now: Date; jobsRun: number }> {
  if (business.mode !== "sandbox") throw new UnauthorizedError("clock advance on a live business");
  const deadline = Date.now() + boundMs;
  const { clockOffsetMs, until } = await markAdvancing(db, business, deadline);
  try {
    const ms = seconds * 1000;
    const target = new Date(businessNow({ clockOffsetMs }).getTime() + ms);
    const cursor = await moveTestClock(db, business, target);
    await advanceSandboxDisputes(business, seconds);
    const offset = await moveBusinessClock(db, business, ms);
    // Another advance ran at the same time: the test clock catches up with the sum of both (a
    // failure here is left to the next advance, whose target is absolute).
    if (offset !== clockOffsetMs + ms)
      await advanceSandboxTestClock(db, business, businessNow({ clockOffsetMs: offset })).catch(
        (error: unknown) =>
          log.error("sandbox clock: the Stripe test clock did not catch up", {
            businessId: business.id,
            error,
          }),
      );
    const jobsRun = await settleAdvance(db, business, {
      ctx,
      deadline,
      boundMs,
      pull: () => pullStripeEvents(db, business, cursor),
    });
    return {
      now: offset === clockOffsetMs + ms ? target : businessNow({ clockOffsetMs: offset }),
      jobsRun,
    };
  } finally {
    await unmarkAdvancing(db, business, until);
  }
}

/** Step 1: the mark (until the bound), and the clock's offset read in the same statement. */
async function markAdvancing(db: Db, business: SandboxBusiness, deadline: number) {
  const [row] = await db
    .update(businesses)
    .set({ clockAdvanceUntil: new Date(deadline + 5_000).toISOString() })
    .where(and(eq(businesses.id, business.id), eq(businesses.mode, "sandbox")))
    .returning({ clockOffsetMs: businesses.clockOffsetMs, until: businesses.clockAdvanceUntil });
  if (!row?.until) throw new UnauthorizedError("clock advance on a missing or live business");
  return { clockOffsetMs: row.clockOffsetMs, until: row.until };
}

/** The mark goes, unless a later advance of the same business set its own meanwhile. */
async function unmarkAdvancing(db: Db, business: SandboxBusiness, until: string) {
  await db
    .update(businesses)
    .set({ clockAdvanceUntil: null })
    .where(and(eq(businesses.id, business.id), eq(businesses.clockAdvanceUntil, until)))
    .catch((error: unknown) =>
      // Left in place, the mark lapses by itself at its bound.
      log.error("sandbox clock: the advance's mark stayed", { businessId: business.id, error }),
    );
}

/** Step 3: the business's clock and the jobs on it, in one transaction; answers the new offset. */
async function moveBusinessClock(db: Db, business: SandboxBusiness, ms: number): Promise<number> {
  return db.transaction(async (tx) => {
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
}

/**
 * The business's Stripe test clock to `to`, or a 502 saying the sandbox clock did not move; answers
 * where the provider's events of the advance start (read before the clock moves).
 */
async function moveTestClock(db: Db, business: SandboxBusiness, to: Date): Promise<EventCursor> {
  try {
    const cursor = await stripeEventCursor(db, business);
    await advanceSandboxTestClock(db, business, to);
    return cursor;
  } catch (error) {
    log.error("sandbox clock: the Stripe test clock did not advance", { businessId: business.id, error });
    const cause = error instanceof Error ? error.message : String(error);
    throw new ProviderError(
      `The Stripe test clock did not move (${cause}); the business's clock is unchanged: retry the advance`,
      error instanceof ProviderError ? error.errorType : "provider_error",
    );
  }
}
