import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, type Business } from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { ProviderError } from "@/lib/errors";
import { stripeFor } from "../provider-for";

/**
 * The Stripe test clock of a sandbox business (on its emulator account), created at the
 * business's now on first need: customers created on it (subscriptions) renew, retry and end by
 * the business's clock, since every advance of that clock advances it too. Concurrent first calls
 * agree on one clock: the column is only set while empty, and the loser deletes its own.
 */
export async function ensureSandboxTestClock(
  db: Db,
  business: Pick<Business, "id" | "mode">,
): Promise<string> {
  if (business.mode !== "sandbox") throw new ProviderError("Only sandbox businesses have a test clock");
  const current = await readClock(db, business.id);
  if (current.stripeTestClockId) return current.stripeTestClockId;
  const stripe = await stripeFor(db, business);
  const clock = await stripe.testHelpers.testClocks.create({
    frozen_time: Math.floor(businessNow(current).getTime() / 1000),
    name: `Kassa sandbox clock of ${business.id}`,
  });
  const [stored] = await db
    .update(businesses)
    .set({ stripeTestClockId: clock.id })
    .where(and(eq(businesses.id, business.id), isNull(businesses.stripeTestClockId)))
    .returning({ id: businesses.stripeTestClockId });
  if (stored?.id) return stored.id;
  await stripe.testHelpers.testClocks.del(clock.id).catch(() => undefined);
  const winner = await readClock(db, business.id);
  return winner.stripeTestClockId!;
}

async function readClock(db: Db, businessId: string) {
  const [row] = await db
    .select({ clockOffsetMs: businesses.clockOffsetMs, stripeTestClockId: businesses.stripeTestClockId })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  if (!row) throw new ProviderError("No such business");
  return row;
}
