import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payments, recoveryMails, type Business, type RecoveryMailKind, type Subscription } from "@/db/schema";
import { isLocale, type Locale } from "@/lib/i18n";
import { enqueueMail } from "@/lib/mail/enqueue-mail";
import type { MailParts } from "@/lib/mail/render-mail";
import { managementUrl } from "@/lib/subscriptions/management-token";
import type { RecoveryFacts } from "./recovery-text";

/** Whether the business sends this kind of recovery e-mail (each is opt-in, off by default). */
export function recoveryMailOn(business: Business, kind: RecoveryMailKind): boolean {
  if (kind === "renewal_failed") return business.recoveryFailedMail;
  if (kind === "renewal_ahead") return business.recoveryAheadMail;
  return business.recoveryExpiryMail;
}

/** Where the subscriber's mail goes: the payer's billing e-mail, else the e-mail given at signup. */
export function subscriberAddress(subscription: Subscription): string | null {
  return subscription.payerDetails?.email || subscription.customerEmail || null;
}

/** The facts every recovery e-mail names, in the language of the signup's checkout. */
export async function recoveryFacts(tx: Db, business: Business, subscription: Subscription): Promise<RecoveryFacts> {
  const [signup] = await tx
    .select({ locale: payments.locale })
    .from(payments)
    .where(eq(payments.id, subscription.initialPaymentId));
  const locale: Locale = isLocale(signup?.locale) ? signup.locale : "en";
  return {
    merchant: business.name,
    orderId: subscription.orderId,
    amount: subscription.unitAmount,
    currency: subscription.currency,
    locale,
    managementUrl: managementUrl(subscription.id),
  };
}

export type RecoveryMailInput = {
  business: Business;
  subscription: Subscription;
  /** The renewal the e-mail is about (2 for the first renewal). */
  cycle: number;
  kind: RecoveryMailKind;
  /** Cents the renewal charges when it is not the plan's unit amount (the failed invoice's amount due). */
  amount?: number;
  parts: (facts: RecoveryFacts) => MailParts;
};

/**
 * Writes one recovery e-mail to the subscriber in `tx` (the transaction of the change that causes
 * it): its recovery_mails row, whose primary key (subscription, cycle, kind) lets only the first
 * writer through, and the message with its send_mail job. Nothing when the business has not
 * switched this kind on, the subscription has ended, or no address is known. Returns the mail
 * message's id, or null when nothing was sent.
 */
export async function sendRecoveryMail(tx: Db, input: RecoveryMailInput): Promise<string | null> {
  const { business, subscription, cycle, kind } = input;
  if (!recoveryMailOn(business, kind) || subscription.status === "canceled") return null;
  const to = subscriberAddress(subscription);
  if (!to) return null;
  const [claimed] = await tx
    .insert(recoveryMails)
    .values({ subscriptionId: subscription.id, cycle, kind, businessId: business.id })
    .onConflictDoNothing()
    .returning();
  if (!claimed) return null;
  const facts = await recoveryFacts(tx, business, subscription);
  const parts = input.parts(input.amount === undefined ? facts : { ...facts, amount: input.amount });
  const mail = await enqueueMail(tx, { businessId: business.id, kind: "recovery", to, parts });
  await tx
    .update(recoveryMails)
    .set({ mailMessageId: mail.id })
    .where(
      and(
        eq(recoveryMails.subscriptionId, subscription.id),
        eq(recoveryMails.cycle, cycle),
        eq(recoveryMails.kind, kind),
      ),
    );
  return mail.id;
}
