import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, type Business } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";

/**
 * Turns payouts on or off for a business (the dashboard's Payouts page). Off, `POST /payout/create`
 * and the dashboard's allocations answer "Payouts are currently disabled"; payout users keep their
 * balances and may still withdraw, and pending withdrawals can still be completed or rejected.
 */
export async function setPayoutsEnabled(db: Db, businessId: string, enabled: boolean): Promise<Business> {
  const [business] = await db.update(businesses).set({ payoutsEnabled: enabled }).where(eq(businesses.id, businessId)).returning();
  if (!business) throw new NotFoundError("business_not_found", "No such business");
  return business;
}
