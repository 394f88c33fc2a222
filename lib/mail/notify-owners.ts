import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mailMessages, memberships, users } from "@/db/schema";
import { origin } from "@/lib/env";
import { formatMoney } from "@/lib/money";
import { enqueueMail } from "./enqueue-mail";
import { ownerNoticeMail, type OwnerNotice } from "./messages";

export type { OwnerNotice };

/**
 * Sends an owner notice to every active owner of the business: one message each, written with
 * its send_mail job in `tx` (call it in the transaction of the change the notice is about, so the
 * notice exists if and only if that change committed). Returns the messages' ids.
 * `onceWithinMs`: sends nothing when the same notice (same subject) went to this business's owners
 * that recently (a failing endpoint fails every event: one e-mail a day is enough); `tx` must then
 * be a transaction.
 */
export async function notifyOwners(tx: Db, businessId: string, notice: OwnerNotice, options: { onceWithinMs?: number } = {}): Promise<string[]> {
  if (options.onceWithinMs) {
    // Two failing events of one business can conclude at once: the lock (till commit) makes the
    // second wait, then see the first's message.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`owner-notice:${businessId}:${notice.subject}`}, 0))`);
    const [recent] = await tx
      .select({ id: mailMessages.id })
      .from(mailMessages)
      .where(
        and(
          eq(mailMessages.businessId, businessId),
          eq(mailMessages.kind, "owner_notice"),
          eq(mailMessages.subject, notice.subject),
          gt(mailMessages.createdAt, sql`now() - ${options.onceWithinMs}::float8 * interval '1 millisecond'`),
        ),
      )
      .limit(1);
    if (recent) return [];
  }
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

/** Tells the owners a payment of `amount` cents waits for their review (lib/payments/settle-attempt.ts). */
export function notifyPaymentHeld(tx: Db, businessId: string, sessionId: string, amount: number): Promise<string[]> {
  return notifyOwners(tx, businessId, paymentReviewNotice({ sessionId, amountText: formatMoney(amount) }));
}

/** A failing endpoint is reported at most once a day per business. */
export const webhookFailingNoticeInterval = 24 * 60 * 60 * 1000;

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

/** The notice for a webhook endpoint Kassa disabled (decision 0050): sent once per disabling. */
export function webhookDisabledNotice(input: { url: string; reason: string }): OwnerNotice {
  return {
    subject: "Kassa stopped sending to your webhook endpoint",
    paragraphs: [
      `Kassa disabled the webhook endpoint ${input.url}: ${input.reason}.`,
      "No event is lost: new events are kept, not sent. Fix the endpoint, then re-enable it on the webhook page; Kassa offers to send everything it kept, oldest first.",
    ],
    action: { label: "Open the webhook page", url: `${origin()}/dashboard/webhooks` },
  };
}
