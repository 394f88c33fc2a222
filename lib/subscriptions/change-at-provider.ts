import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { subscriptions, type Business, type Subscription } from "@/db/schema";
import { ProviderError, SubscriptionUpdateFailedError } from "@/lib/errors";
import { randomToken } from "@/lib/ids";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import type { ProviderSubscriptionState } from "@/lib/providers/stripe/stripe-billing";
import { isUnavailable } from "@/lib/providers/stripe/stripe-billing";
import { parseDbTime } from "@/lib/time";
import { lockSubscription, updateSubscription } from "./subscription-records";
import { billingFor } from "./set-up-subscription";

/** A claim older than this (its process died mid-call) no longer blocks other changes. */
export const staleClaimMs = 2 * 60_000;

export type PendingOp = "schedule" | "cancel" | "resume";

type Decision<T> =
  /** Settled under the lock, nothing to ask the provider. */
  | { done: T }
  /** Ask the provider, then apply its answer. */
  | {
      call: (
        billing: Awaited<ReturnType<typeof billingFor>>,
        providerId: string,
      ) => Promise<ProviderSubscriptionState>;
    };

/**
 * A cancel or resume (decision 0013), without ever calling the provider inside a transaction:
 * 1. under the row's lock, `decide` checks the rules on fresh data; a change needing the provider
 *    claims the row (`pending_op` + token), so a concurrent change gets 409 rather than racing;
 * 2. the provider is called with no lock held;
 * 3. under the lock again, `apply` records the answer, only if the claim is still ours.
 * A provider refusal answers 502, no answer 503 (the claim is released: safe to retry).
 */
export async function changeAtProvider<T extends Subscription>(
  db: Db,
  businessId: string,
  subscriptionId: string,
  op: PendingOp,
  decide: (tx: Db, subscription: Subscription, business: Business) => Promise<Decision<T>>,
  apply: (
    tx: Db,
    subscription: Subscription,
    business: Business,
    state: ProviderSubscriptionState,
  ) => Promise<T>,
): Promise<Subscription> {
  const token = randomToken(24);
  const first = await transactionWithJobs(db, async (tx) => {
    const { subscription, business } = await lockSubscription(tx, subscriptionId, businessId);
    if (
      subscription.pendingOp &&
      subscription.pendingOpAt &&
      parseDbTime(subscription.pendingOpAt).getTime() > Date.now() - staleClaimMs
    )
      throw new SubscriptionUpdateFailedError(
        "conflict",
        "The subscription is being changed by another request; retry",
      );
    const decision = await decide(tx, subscription, business);
    if ("done" in decision) return decision;
    await updateSubscription(tx, subscription.id, {
      pendingOp: op,
      pendingOpToken: token,
      pendingOpAt: sql`now()` as unknown as string,
    });
    return { call: decision.call, providerId: subscription.providerSubscriptionId! };
  });
  if ("done" in first) return first.done;

  let state: ProviderSubscriptionState;
  try {
    state = await first.call(await billingFor(db, businessId), first.providerId);
  } catch (error) {
    await release(db, subscriptionId, token);
    if (error instanceof ProviderError)
      throw new SubscriptionUpdateFailedError(
        isUnavailable(error) ? "provider_unavailable" : "provider_refused",
        error.message,
      );
    throw error;
  }
  try {
    return await transactionWithJobs(db, async (tx) => {
      const { subscription, business } = await lockSubscription(tx, subscriptionId, businessId);
      if (subscription.pendingOpToken !== token)
        throw new SubscriptionUpdateFailedError(
          "conflict",
          "The subscription changed during the request; retry",
        );
      // The provider's own event may have been applied meanwhile (it tells Kassa's changes by their comment).
      const applied = await apply(tx, subscription, business, state);
      return updateSubscription(tx, applied.id, { pendingOp: null, pendingOpToken: null, pendingOpAt: null });
    });
  } catch (error) {
    await release(db, subscriptionId, token);
    throw error;
  }
}

async function release(db: Db, subscriptionId: string, token: string): Promise<void> {
  await db
    .update(subscriptions)
    .set({ pendingOp: null, pendingOpToken: null, pendingOpAt: null, updatedAt: sql`now()` })
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.pendingOpToken, token)));
}
