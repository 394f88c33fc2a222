import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { businesses, type Business } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";

/**
 * Turns the payer's receipts on or off for a business (dashboard Settings, decision 0051): on,
 * every later succeeded payment, renewal and refund e-mails its payer a receipt. A change is
 * audited (`business.receipts_switch`); saving the same value records nothing.
 */
export async function setSendReceipts(db: Db, businessId: string, enabled: boolean): Promise<Business> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ enabled: businesses.sendReceipts }).from(businesses).where(eq(businesses.id, businessId)).for("update");
    if (!before) throw new NotFoundError("business_not_found", "No such business");
    const [business] = await tx.update(businesses).set({ sendReceipts: enabled }).where(eq(businesses.id, businessId)).returning();
    if (before.enabled !== enabled)
      await recordAudit(tx, { businessId, action: "business.receipts_switch", target: { type: "business", id: businessId }, changes: { send_receipts: { from: before.enabled, to: enabled } } });
    return business!;
  });
}
