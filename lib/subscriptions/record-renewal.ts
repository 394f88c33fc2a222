import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  payments,
  sessions,
  subscriptionCycles,
  type Business,
  type Payment,
  type Session,
  type Subscription,
  type SubscriptionCycle,
} from "@/db/schema";
import { newId } from "@/lib/ids";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { creditBusiness } from "@/lib/payments/payment-records";
import { issueReceipt } from "@/lib/receipts/issue-receipt";
import { renewalFailedMail } from "@/lib/recovery/recovery-text";
import { sendRecoveryMail } from "@/lib/recovery/send-recovery-mail";
import { scheduleRecoveryNotice } from "@/lib/recovery/recovery-notice-job";
import type { ProviderInvoiceState } from "@/lib/providers/stripe/stripe-billing";
import { parseDbTime, toDbTime } from "@/lib/time";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";
import { cycleOfPeriod } from "./interval";
import { lockSubscription, updateSubscription, webhookSubscriptionInfo } from "./subscription-records";
import { businessNow } from "@/lib/clock";

export type RenewalResult =
  { cycle: number; outcome: "paid" | "failed" | "unchanged" } | { outcome: "not_a_renewal" };

/** An invoice that bills a renewal (not the $0 first invoice of the anchored subscription). */
export function isRenewalInvoice(invoice: ProviderInvoiceState): boolean {
  return (
    invoice.billingReason === "subscription_cycle" && invoice.amountDue > 0 && invoice.periodStart !== null
  );
}

/**
 * Records what the provider's current state of a renewal invoice means, idempotently (decision
 * 0013). The cycle comes from the invoice's period, so retries of one invoice share a cycle, a
 * session and an order_id (`{order_id}-{cycle}`), whatever order its events arrive in.
 * - paid: the renewal payment `succeeded`, the net credited through the ledger, `succeeded` sent
 *   (cycle ≥ 2, the new period end, the signup metadata, the payer's billing details);
 * - failed: `past_due` and `subscription_payment_failed` once per cycle, with its reason; the
 *   event's current_period_end is the end of the last paid period.
 */
export async function recordRenewal(
  db: Db,
  subscriptionId: string,
  invoice: ProviderInvoiceState,
  /** The event that pointed here: names the failure when the invoice's charge cannot be read. */
  eventType?: string,
): Promise<RenewalResult> {
  if (!isRenewalInvoice(invoice)) return { outcome: "not_a_renewal" };
  const paid = invoice.status === "paid";
  const failed = !paid && invoice.status === "open" && (invoice.failureReason !== null || invoice.attempted);
  const failureReason =
    invoice.failureReason ??
    (eventType === "invoice.payment_action_required" ? "authentication_required" : "payment_failed");
  return transactionWithJobs(db, async (tx): Promise<RenewalResult> => {
    const { subscription, business } = await lockSubscription(tx, subscriptionId);
    const cycle = cycleOfPeriod(
      parseDbTime(subscription.periodAnchor),
      invoice.periodStart!,
      subscription.interval,
      subscription.intervalCount,
    );
    if (cycle < 2) return { outcome: "not_a_renewal" };
    let row = await cycleRow(tx, subscription, invoice.id);
    if (!row) {
      if (!paid && !failed) return { cycle, outcome: "unchanged" };
      row = await openCycle(tx, business, subscription, invoice, cycle);
    }
    const { session, payment } = await renewalRecords(tx, row);
    let current = subscription;
    if (cycle > current.cyclesCount)
      current = await updateSubscription(tx, current.id, { cyclesCount: cycle });

    const cycleState: CycleState = { business, subscription, current, session, payment, row, cycle };
    if (paid && row.status !== "paid") return applyPaidRenewal(tx, cycleState, invoice);
    if (failed && row.status === "open" && !row.failureNotified)
      return applyFailedRenewal(tx, cycleState, { code: failureReason, invoice });
    return { cycle, outcome: "unchanged" };
  });
}

/** What one renewal cycle's change works on, read under the subscription's lock. */
type CycleState = {
  business: Business;
  subscription: Subscription;
  current: Subscription;
  session: Session;
  payment: Payment;
  row: SubscriptionCycle;
  cycle: number;
};

/** The renewal was paid: payment succeeded, net credited, the period extended, `succeeded` sent. */
async function applyPaidRenewal(tx: Db, state: CycleState, invoice: ProviderInvoiceState): Promise<RenewalResult> {
  const { business, subscription, session, payment, row, cycle } = state;
  let { current } = state;
  const [succeeded] = await tx
    .update(payments)
    .set({
      status: "succeeded",
      amount: invoice.amountPaid,
      fees: Math.min(subscription.unitFees, invoice.amountPaid),
      netAmount: Math.max(0, invoice.amountPaid - subscription.unitFees),
      failureCode: null,
      failureMessage: null,
      completedAt: toDbTime(businessNow(business)),
      updatedAt: sql`now()`,
    })
    .where(eq(payments.id, payment.id))
    .returning();
  await creditBusiness(tx, succeeded!);
  await markCycle(tx, row, { status: "paid" });
  const periodEnd = invoice.periodEnd ? toDbTime(invoice.periodEnd) : current.currentPeriodEnd;
  const extended =
    current.status !== "canceled" &&
    periodEnd &&
    (!current.currentPeriodEnd || parseDbTime(periodEnd) > parseDbTime(current.currentPeriodEnd));
  if (extended || current.status === "past_due")
    current = await updateSubscription(tx, current.id, {
      ...(extended ? { currentPeriodEnd: periodEnd } : {}),
      ...(current.status === "past_due" ? { status: "active" as const } : {}),
    });
  // Recovery (opt-in): the notices before the next renewal.
  if (extended) await scheduleRecoveryNotice(tx, business, current);
  await emitWebhookEvent(tx, {
    business,
    session,
    payment: succeeded!,
    type: "succeeded",
    subscription: { ...webhookSubscriptionInfo(current, cycle), currentPeriodEnd: periodEnd },
  });
  await issueReceipt(tx, {
    business,
    session,
    payment: succeeded!,
    cycle,
    locale: business.sendReceipts ? await signupLocale(tx, current) : null,
    email: current.payerDetails?.email ?? current.customerEmail,
  });
  return { cycle, outcome: "paid" };
}

/** The renewal charge failed: `past_due` and `subscription_payment_failed`, once per cycle. */
async function applyFailedRenewal(
  tx: Db,
  state: CycleState,
  failure: { code: string; invoice: ProviderInvoiceState },
): Promise<RenewalResult> {
  const { subscription, business, session, payment, row, cycle } = state;
  const failureReason = failure.code;
  let { current } = state;
  const [failedPayment] = await tx
    .update(payments)
    .set({
      status: "failed",
      failureCode: failureReason,
      failureMessage: "The renewal charge failed",
      updatedAt: sql`now()`,
    })
    .where(eq(payments.id, payment.id))
    .returning();
  await markCycle(tx, row, { status: "failed", failureNotified: true });
  if (current.status === "active")
    current = await updateSubscription(tx, current.id, { status: "past_due" });
  await emitWebhookEvent(tx, {
    business,
    session,
    payment: failedPayment!,
    type: "subscription_payment_failed",
    failureReason,
    // The end of the last paid period: access is not extended by an unpaid renewal.
    subscription: webhookSubscriptionInfo(current, cycle),
    dedupeKey: `subscription_payment_failed:${subscription.id}:${cycle}`,
  });
  // Recovery (opt-in): the payer hears what failed and gets the provider's page to pay it.
  await sendRecoveryMail(tx, {
    business,
    subscription: current,
    cycle,
    kind: "renewal_failed",
    amount: failure.invoice.amountDue,
    parts: (facts) => renewalFailedMail(facts, { code: failureReason, payUrl: failure.invoice.hostedInvoiceUrl }),
  });
  return { cycle, outcome: "failed" };
}

/** The language the payer signed up in (the signup payment's checkout): renewal receipts speak it. */
async function signupLocale(tx: Db, subscription: Subscription): Promise<string | null> {
  const [row] = await tx.select({ locale: payments.locale }).from(payments).where(eq(payments.id, subscription.initialPaymentId));
  return row?.locale ?? null;
}

async function cycleRow(tx: Db, subscription: Subscription, invoiceId: string) {
  const [row] = await tx
    .select()
    .from(subscriptionCycles)
    .where(
      and(
        eq(subscriptionCycles.subscriptionId, subscription.id),
        eq(subscriptionCycles.providerInvoiceId, invoiceId),
      ),
    );
  return row ?? null;
}

async function markCycle(tx: Db, row: SubscriptionCycle, set: Partial<SubscriptionCycle>) {
  await tx
    .update(subscriptionCycles)
    .set({ ...set, updatedAt: sql`now()` })
    .where(
      and(
        eq(subscriptionCycles.subscriptionId, row.subscriptionId),
        eq(subscriptionCycles.providerInvoiceId, row.providerInvoiceId),
      ),
    );
}

/** The renewal's session (`{order_id}-{cycle}`, the signup's items and metadata) and its payment. */
async function openCycle(
  tx: Db,
  business: Business,
  subscription: Subscription,
  invoice: ProviderInvoiceState,
  cycle: number,
): Promise<SubscriptionCycle> {
  const [signup] = await tx.select().from(payments).where(eq(payments.id, subscription.initialPaymentId));
  const sessionId = newId("session");
  const now = toDbTime(businessNow(business));
  await tx.insert(sessions).values({
    id: sessionId,
    businessId: business.id,
    amount: subscription.amount,
    currency: subscription.currency,
    customer: subscription.customer ?? "",
    customerEmail: subscription.customerEmail,
    orderId: `${subscription.orderId}-${cycle}`,
    items: subscription.items,
    metadata: subscription.metadata,
    paymentMethodId: `${subscription.provider}_${subscription.paymentMethod}`,
    keyKind: "secret",
    // Nothing to pay on Kassa's page: the provider charges it.
    expiresAt: now,
    createdAt: now,
  });
  await tx.insert(payments).values({
    id: newId("payment"),
    sessionId,
    businessId: business.id,
    status: "processing",
    amount: invoice.amountDue,
    paymentMethod: subscription.paymentMethod,
    provider: subscription.provider,
    providerPaymentId: invoice.id,
    providerCustomerId: subscription.providerCustomerId,
    customerDetails: subscription.payerDetails,
    paymentDetails: signup?.paymentDetails ?? null,
    createdAt: now,
  });
  const [row] = await tx
    .insert(subscriptionCycles)
    .values({
      subscriptionId: subscription.id,
      cycle,
      providerInvoiceId: invoice.id,
      sessionId,
      status: "open",
      periodEnd: invoice.periodEnd ? toDbTime(invoice.periodEnd) : null,
    })
    .returning();
  return row!;
}

async function renewalRecords(
  tx: Db,
  row: SubscriptionCycle,
): Promise<{ session: Session; payment: Payment }> {
  const [session] = await tx.select().from(sessions).where(eq(sessions.id, row.sessionId!));
  const [payment] = await tx.select().from(payments).where(eq(payments.sessionId, row.sessionId!));
  return { session: session!, payment: payment! };
}
