import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { subscriptions, type Business } from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { toDbTime } from "@/lib/time";
import { endSubscription, lockSubscription } from "./subscription-records";

/**
 * The signup payment was refunded (inside the transaction that records the refund): the
 * subscription ends (`system`, `initial_payment_refunded`, `subscription_canceled`) and a
 * `setup_subscription` job ends it at the provider too, after commit. Nothing for other payments.
 */
export async function cancelRefundedSubscription(
  tx: Db,
  business: Business,
  paymentId: string,
): Promise<void> {
  const [row] = await tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.initialPaymentId, paymentId));
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
