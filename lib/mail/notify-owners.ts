import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, users } from "@/db/schema";
import { origin } from "@/lib/env";
import { enqueueMail } from "./enqueue-mail";
import { ownerNoticeMail, type OwnerNotice } from "./messages";

export type { OwnerNotice };

/**
 * Sends an owner notice to every active owner of the business: one message each, written with
 * its send_mail job in `tx` (call it in the transaction of the change the notice is about, so the
 * notice exists if and only if that change committed). Returns the messages' ids.
 */
export async function notifyOwners(tx: Db, businessId: string, notice: OwnerNotice): Promise<string[]> {
  const owners = await tx
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.businessId, businessId), eq(memberships.role, "owner"), isNull(users.disabledAt)));
  const ids: string[] = [];
  for (const owner of owners)
    ids.push((await enqueueMail(tx, { businessId, kind: "owner_notice", to: owner.email, parts: ownerNoticeMail(notice) })).id);
  return ids;
}

/** The notice for a payment held for review. */
export function paymentReviewNotice(input: { sessionId: string; amountText: string }): OwnerNotice {
  return {
    subject: `A payment of ${input.amountText} is waiting for your review`,
    paragraphs: [
      `Fraud screening held the payment of session ${input.sessionId} (${input.amountText}) for review.`,
      "Accept it to capture the payment, or decline it to release the customer's card.",
    ],
    action: { label: "Review the payment", url: `${origin()}/dashboard/payments/${encodeURIComponent(input.sessionId)}` },
  };
}

/** The notice for a webhook endpoint that failed every attempt of a delivery. */
export function webhookFailingNotice(input: { url: string; eventKind: string; error: string | null }): OwnerNotice {
  return {
    subject: "Your webhook endpoint is failing",
    paragraphs: [
      `Kassa could not deliver a ${input.eventKind} event to ${input.url}: every attempt failed${input.error ? ` (last: ${input.error.slice(0, 200)})` : ""}.`,
      "Check the endpoint, then resend the event from the webhook log.",
    ],
    action: { label: "Open the webhook log", url: `${origin()}/dashboard/webhooks` },
  };
}
