import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { businesses, type Business } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";

/**
 * Turns payouts on or off for a business (the dashboard's Payouts page). Off, `POST /payout/create`
 * and the dashboard's allocations answer "Payouts are currently disabled"; payout users keep their
 * balances and may still withdraw, and pending withdrawals can still be completed or rejected.
 */
export async function setPayoutsEnabled(db: Db, businessId: string, enabled: boolean): Promise<Business> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ enabled: businesses.payoutsEnabled }).from(businesses).where(eq(businesses.id, businessId)).for("update");
    if (!before) throw new NotFoundError("business_not_found", "No such business");
    const [business] = await tx.update(businesses).set({ payoutsEnabled: enabled }).where(eq(businesses.id, businessId)).returning();
    if (before.enabled !== enabled)
      await recordAudit(tx, { businessId, action: "business.payouts_switch", target: { type: "business", id: businessId }, changes: { payouts_enabled: { from: before.enabled, to: enabled } } });
    return business!;
  });
}
