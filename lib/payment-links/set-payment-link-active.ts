import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { paymentLinks, type PaymentLink } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { NotFoundError } from "@/lib/errors";

export class PaymentLinkNotFoundError extends NotFoundError {
  constructor() {
    super("payment_link_not_found", "No such payment link");
  }
}

/** The business's link by id, or PaymentLinkNotFoundError (another business's is not found either). */
export async function getPaymentLink(db: Db, businessId: string, id: string): Promise<PaymentLink> {
  const [link] = await db
    .select()
    .from(paymentLinks)
    .where(and(eq(paymentLinks.id, id), eq(paymentLinks.businessId, businessId)));
  if (!link) throw new PaymentLinkNotFoundError();
  return link;
}

/**
 * Deactivates or reactivates a link (its URL then shows a page saying so, or works again). Already
 * in that state: the link unchanged, no audit record. Sessions already made are not touched.
 */
export async function setPaymentLinkActive(db: Db, businessId: string, id: string, active: boolean): Promise<PaymentLink> {
  return db.transaction(async (tx) => {
    const [changed] = await tx
      .update(paymentLinks)
      .set({ active })
      .where(and(eq(paymentLinks.id, id), eq(paymentLinks.businessId, businessId), eq(paymentLinks.active, !active)))
      .returning();
    if (!changed) return getPaymentLink(tx, businessId, id);
    await recordAudit(tx, {
      businessId,
      action: active ? "payment_link.activate" : "payment_link.deactivate",
      target: { type: "payment_link", id },
      changes: { active: { from: !active, to: active } },
    });
    return changed;
  });
}
