import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { subscriptions, type Business, type Payment } from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { toDbTime } from "@/lib/time";
import { endSubscription, lockSubscription } from "./subscription-records";

/**
 * A refund of a payment succeeded (inside the transaction that records it). When the payment is
 * a plan's signup payment and is now refunded in full (`refundedTotal`: its succeeded refunds),
 * the subscription ends (`system`, `initial_payment_refunded`, `subscription_canceled`) and a
 * `setup_subscription` job ends it at the provider too, after commit. A partial refund (a goodwill
 * gesture) keeps the plan: "signup payment refunded" means refunded in full (decision 0077).
 * Nothing for other payments.
 */
export async function cancelRefundedSubscription(
  tx: Db,
  business: Business,
  payment: Pick<Payment, "id" | "amount">,
  refundedTotal: number,
): Promise<void> {
  if (refundedTotal < payment.amount) return;
  const [row] = await tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.initialPaymentId, payment.id));
  if (!row) return;
  const { subscription } = await lockSubscription(tx, row.id);
  if (subscription.status === "canceled") return;
  await endSubscription(tx, business, subscription, {
    by: "system",
    reason: "initial_payment_refunded",
    at: toDbTime(businessNow(business)),
  });
  await enqueueJob(tx, {
    kind: "setup_subscription",
    businessId: business.id,
    payload: { subscriptionId: subscription.id },
    dedupeKey: `setup_subscription:${subscription.id}:refunded`,
    maxAttempts: 12,
  });
}
