import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, payments, sessions, subscriptions, type Business, type Subscription } from "@/db/schema";
import { SubscriptionNotFoundError } from "@/lib/errors";
import { emitWebhookEvent, type WebhookSubscriptionInfo } from "@/lib/webhooks/emit-webhook-event";
import { managementUrl } from "./management-token";

// Reads and writes shared by the subscription services.

export const subscriptionIdPattern = /^psub_[0-9A-Za-z]{1,64}$/;

/**
 * Locks a subscription row (SELECT … FOR UPDATE) and reads it afresh with its business. Every
 * change of a subscription happens under this lock. `businessId` restricts to one business
 * (another business's subscription is as unknown as a missing one).
 */
export async function lockSubscription(
  tx: Db,
  id: string,
  businessId?: string,
): Promise<{ subscription: Subscription; business: Business }> {
  if (!subscriptionIdPattern.test(id)) throw new SubscriptionNotFoundError();
  const [row] = await tx
    .select({ subscription: subscriptions, business: businesses })
    .from(subscriptions)
    .innerJoin(businesses, eq(businesses.id, subscriptions.businessId))
    .where(
      businessId
        ? and(eq(subscriptions.id, id), eq(subscriptions.businessId, businessId))
        : eq(subscriptions.id, id),
    )
    .for("update", { of: subscriptions });
  if (!row) throw new SubscriptionNotFoundError();
  return row;
}

export async function findSubscription(db: Db, id: string, businessId?: string): Promise<Subscription> {
  if (!subscriptionIdPattern.test(id)) throw new SubscriptionNotFoundError();
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(
      businessId
        ? and(eq(subscriptions.id, id), eq(subscriptions.businessId, businessId))
        : eq(subscriptions.id, id),
    )
    .limit(1);
  if (!row) throw new SubscriptionNotFoundError();
  return row;
}

/** Updates the row (under the caller's lock), bumping its version. */
export async function updateSubscription(
  tx: Db,
  id: string,
  set: Partial<Subscription>,
): Promise<Subscription> {
  const [row] = await tx
    .update(subscriptions)
    .set({ ...set, version: sql`${subscriptions.version} + 1`, updatedAt: sql`now()` })
    .where(eq(subscriptions.id, id))
    .returning();
  return row!;
}

export function webhookSubscriptionInfo(subscription: Subscription, cycle: number): WebhookSubscriptionInfo {
  return {
    id: subscription.id,
    cycle,
    currentPeriodEnd: subscription.currentPeriodEnd,
    managementUrl: managementUrl(subscription.id),
  };
}

/**
 * `subscription_canceled`, once per subscription, attached to the signup payment (its order_id,
 * cycle 1), inside the transaction that ends the subscription.
 */
export async function emitSubscriptionCanceled(
  tx: Db,
  business: Business,
  subscription: Subscription,
): Promise<void> {
  const [session] = await tx.select().from(sessions).where(eq(sessions.id, subscription.initialSessionId));
  const [payment] = await tx.select().from(payments).where(eq(payments.id, subscription.initialPaymentId));
  await emitWebhookEvent(tx, {
    business,
    session: session!,
    payment: payment ?? null,
    type: "subscription_canceled",
    subscription: webhookSubscriptionInfo(subscription, 1),
    dedupeKey: `subscription_canceled:${subscription.id}`,
  });
}

/** Ends a subscription (under the caller's lock) and announces it; nothing when already ended. */
export async function endSubscription(
  tx: Db,
  business: Business,
  subscription: Subscription,
  end: { by: NonNullable<Subscription["canceledBy"]>; reason: string; at: string },
): Promise<Subscription> {
  if (subscription.status === "canceled") return subscription;
  const ended = await updateSubscription(tx, subscription.id, {
    status: "canceled",
    canceledAt: end.at,
    canceledBy: end.by,
    cancellationReason: end.reason,
  });
  await emitSubscriptionCanceled(tx, business, ended);
  return ended;
}
