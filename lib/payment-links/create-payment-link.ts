import type { Db } from "@/db/client";
import { paymentLinks, type PaymentLink } from "@/db/schema";
import type { ApiCaller } from "@/lib/auth/api-keys";
import { recordAudit } from "@/lib/audit/record-audit";
import { businessNow } from "@/lib/clock";
import { isUniqueViolation } from "@/lib/db-errors";
import { ValidationError } from "@/lib/errors";
import { newId, randomToken } from "@/lib/ids";
import { lockOrderId, refuseLinkPrefixOfPlan } from "@/lib/sessions/order-id-collision";
import { toDbTime } from "@/lib/time";
import type { LinkInput } from "./link-input";

/**
 * Stores a link checked by parseLinkInput, and its audit record, in one transaction. The slug is
 * 12 random base62 characters (not guessable from another link's); the default order prefix
 * derives from it, so it is unique too.
 */
export async function createPaymentLink(db: Db, caller: ApiCaller, input: LinkInput): Promise<PaymentLink> {
  const slug = randomToken(12);
  const id = newId("paymentLink");
  const orderPrefix = input.orderPrefix ?? `PL_${slug}`;
  try {
    return await db.transaction(async (tx) => {
      // A chosen prefix may be a plan's order id (a default one cannot: it is new). The plan's
      // lock, so a plan on this order id and this link cannot both be made.
      if (input.orderPrefix) {
        await lockOrderId(tx, caller.business.id, orderPrefix, true, undefined);
        await refuseLinkPrefixOfPlan(tx, caller.business.id, orderPrefix);
      }
      const [link] = await tx
        .insert(paymentLinks)
        .values({
          id,
          businessId: caller.business.id,
          slug,
          orderPrefix,
          amount: input.amount,
          currency: input.currency,
          items: input.items,
          description: input.description,
          metadata: input.metadata,
          subscriptionInterval: input.subscription?.interval ?? null,
          subscriptionIntervalCount: input.subscription?.interval_count ?? null,
          adjustableQuantity: input.adjustableQuantity,
          maxUses: input.maxUses,
          expiresAt: input.expiresAt,
          createdAt: toDbTime(businessNow(caller.business)),
        })
        .returning();
      if (!link) throw new Error("payment link insert returned nothing");
      await recordAudit(tx, {
        businessId: caller.business.id,
        action: "payment_link.create",
        target: { type: "payment_link", id },
        changes: { amount: { from: null, to: input.amount }, url_slug: { from: null, to: slug } },
      });
      return link;
    });
  } catch (error) {
    if (isUniqueViolation(error, "payment_links_business_prefix_idx"))
      throw ValidationError.field(
        "order_prefix",
        "order_prefix is already used by another link of this business",
      );
    throw error;
  }
}
