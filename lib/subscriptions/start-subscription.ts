import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  paymentAttempts,
  subscriptions,
  type Business,
  type Payment,
  type Session,
  type Subscription,
} from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { issueReceipt } from "@/lib/receipts/issue-receipt";
import { scheduleRecoveryNotice } from "@/lib/recovery/recovery-notice-job";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { toDbTime } from "@/lib/time";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";
import { addInterval } from "./interval";
import { managementToken, managementTokenDigest } from "./management-token";
import { webhookSubscriptionInfo } from "./subscription-records";

/**
 * The first payment of a signup session succeeded: the Subscription exists from this transaction
 * on (active, cycle 1, its first period paid), and a `setup_subscription` job will create the
 * subscription at the provider after commit. Idempotent: one subscription per signup session.
 */
export async function startSubscription(
  tx: Db,
  input: { business: Business; session: Session; payment: Payment },
): Promise<Subscription | null> {
  const { business, session, payment } = input;
  if (!session.subscriptionInterval) return null;
  const [existing] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.initialSessionId, session.id));
  if (existing) return existing;
  const [attempt] = payment.attemptId
    ? await tx.select().from(paymentAttempts).where(eq(paymentAttempts.id, payment.attemptId))
    : [];
  const interval = session.subscriptionInterval;
  const count = session.subscriptionIntervalCount ?? 1;
  const now = businessNow(business);
  const id = newId("subscription");
  // Renewals charge what the customer paid without the one-time screening fee.
  const unitAmount = payment.amount - payment.screeningFee;
  const unitFees = (payment.fees ?? 0) - payment.screeningFee;
  const [created] = await tx
    .insert(subscriptions)
    .values({
      id,
      businessId: business.id,
      status: "active",
      amount: session.amount,
      unitAmount,
      unitFees,
      currency: session.currency,
      interval,
      intervalCount: count,
      customer: session.customer,
      customerEmail: session.customerEmail ?? payment.customerDetails?.email ?? null,
      orderId: session.orderId,
      items: session.items,
      metadata: session.metadata,
      paymentMethod: payment.paymentMethod ?? "credit",
      provider: payment.provider ?? "stripe",
      providerCustomerId: payment.providerCustomerId,
      providerPaymentMethodId: attempt?.providerPaymentMethodId ?? null,
      payerDetails: payment.customerDetails,
      cyclesCount: 1,
      periodAnchor: toDbTime(now),
      // Whole seconds, as the provider bills: its period ends then match this one exactly.
      currentPeriodEnd: toDbTime(
        new Date(Math.floor(addInterval(now, interval, count).getTime() / 1000) * 1000),
      ),
      initialSessionId: session.id,
      initialPaymentId: payment.id,
      managementTokenDigest: managementTokenDigest(managementToken(id)),
      createdAt: toDbTime(now),
    })
    .returning();
  await enqueueJob(tx, {
    kind: "setup_subscription",
    businessId: business.id,
    payload: { subscriptionId: id },
    dedupeKey: `setup_subscription:${id}`,
    maxAttempts: 12,
  });
  // Recovery (opt-in): the notices before the first renewal (renewal ahead, card expiring).
  await scheduleRecoveryNotice(tx, business, created!);
  return created!;
}

/**
 * `succeeded` for a first payment, inside the transaction that records it: for a signup session
 * the subscription starts here and the event carries it (cycle 1). The payer's receipt too.
 */
export async function announcePaymentSucceeded(
  tx: Db,
  input: { business: Business; session: Session; payment: Payment },
): Promise<void> {
  const subscription = await startSubscription(tx, input);
  await emitWebhookEvent(tx, {
    ...input,
    type: "succeeded",
    ...(subscription ? { subscription: webhookSubscriptionInfo(subscription, 1) } : {}),
  });
  // The payer's receipt (when the business sends them), with its e-mail: once per payment.
  await issueReceipt(tx, { ...input, ...(subscription ? { cycle: 1 } : {}) });
}
