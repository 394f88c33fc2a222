import { and, eq } from "drizzle-orm";
import Stripe from "stripe";
import type { Db } from "@/db/client";
import { businesses, type Business } from "@/db/schema";
import { ProviderError } from "@/lib/errors";
import { stripeFor } from "../provider-for";

/**
 * Moves a sandbox business's Stripe test clock (if it has one) to `to`, and waits until it reads
 * `ready`: the emulator has then run the renewals, retries and period ends up to that time and
 * made a first attempt at their webhooks, so the provider events they cause are in Kassa's outbox.
 * The target is absolute, so a clock left behind (an advance that failed) catches up at the next.
 * A clock the emulator no longer knows (a restarted emulator) is forgotten: the next
 * ensureSandboxTestClock creates a new one. Answers whether a clock was advanced.
 */
export async function advanceSandboxTestClock(
  db: Db,
  business: Pick<Business, "id" | "mode">,
  to: Date,
  options: { timeoutMs?: number } = {},
): Promise<boolean> {
  if (business.mode !== "sandbox") return false;
  const [row] = await db
    .select({ clockId: businesses.stripeTestClockId })
    .from(businesses)
    .where(eq(businesses.id, business.id));
  const clockId = row?.clockId;
  if (!clockId) return false;
  const stripe = await stripeFor(db, business);
  const target = Math.floor(to.getTime() / 1000);
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    let clock: Stripe.TestHelpers.TestClock;
    try {
      clock = await stripe.testHelpers.testClocks.retrieve(clockId);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError) || error.code !== "resource_missing")
        throw error;
      await db
        .update(businesses)
        .set({ stripeTestClockId: null })
        .where(and(eq(businesses.id, business.id), eq(businesses.stripeTestClockId, clockId)));
      return false;
    }
    if (clock.status === "internal_failure")
      throw new ProviderError(`Stripe test clock ${clockId} failed while advancing`);
    if (clock.status === "ready" && clock.frozen_time >= target) return true;
    if (clock.status === "ready") {
      try {
        await stripe.testHelpers.testClocks.advance(clockId, { frozen_time: target });
      } catch (error) {
        // Another advance of the same clock got there first: wait for it, then go on from there.
        if (
          !(error instanceof Stripe.errors.StripeInvalidRequestError) ||
          error.code !== "test_clock_not_ready"
        )
          throw error;
      }
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new ProviderError(`Stripe test clock ${clockId} is still advancing`, "provider_unavailable");
}
