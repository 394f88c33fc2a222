import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, type Subscription } from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { ProviderError, SubscriptionNotFoundError } from "@/lib/errors";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import type { JobHandler } from "@/lib/jobs/job-outcome";
import { errorBackoffMs } from "@/lib/jobs/run-job";
import { log } from "@/lib/log";
import { rememberProviderObject } from "@/lib/payments/payment-records";
import { stripeFor } from "@/lib/providers/provider-for";
import { advanceSandboxTestClock } from "@/lib/providers/stripe/advance-sandbox-test-clock";
import { isUnavailable, StripeBilling } from "@/lib/providers/stripe/stripe-billing";
import { toDbTime } from "@/lib/time";
import { parseDbTime } from "@/lib/time";
import { applyProviderState } from "./apply-provider-state";
import {
  endSubscription,
  findSubscription,
  lockSubscription,
  updateSubscription,
} from "./subscription-records";

export async function billingFor(db: Db, businessId: string): Promise<StripeBilling> {
  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId));
  if (!business) throw new ProviderError("No such business");
  return new StripeBilling(await stripeFor(db, business));
}

/** `kassa:<actor>`: what Kassa writes in Stripe's cancellation comment to recognise its own changes. */
export const kassaComment = (actor: string) => `kassa:${actor}`;

export type ReconcileResult =
  "created" | "canceled_at_provider" | "scheduled_at_provider" | "in_step" | "setup_failed" | "nothing_to_do";

/**
 * Makes the provider match Kassa for one subscription, idempotently (the `setup_subscription`
 * job, decision 0013):
 * - not created yet and not canceled: creates it (customer's default card, first charge at the
 *   end of the paid period); a refusal cancels the subscription (`system`, `setup_failed:<code>`);
 * - canceled in Kassa (refund, a cancel before setup finished): ends it at the provider too;
 * - scheduled in Kassa but not at the provider (a payer's cancellation undone in the dashboard):
 *   schedules it again.
 * Provider calls happen outside any transaction; the result is applied under the row's lock.
 */
export async function reconcileProviderSubscription(
  db: Db,
  subscriptionId: string,
): Promise<ReconcileResult> {
  const subscription = await findSubscription(db, subscriptionId);
  const billing = await billingFor(db, subscription.businessId);
  if (!subscription.providerSubscriptionId) {
    if (subscription.status === "canceled") return "nothing_to_do";
    return createAtProvider(db, billing, subscription);
  }
  const state = await billing.retrieveSubscription(subscription.providerSubscriptionId);
  if (subscription.status === "canceled" && state.status !== "canceled") {
    await billing.cancelNow(state.id, kassaComment(subscription.canceledBy ?? "system"));
    return "canceled_at_provider";
  }
  if (
    subscription.status !== "canceled" &&
    subscription.cancelAtPeriodEnd &&
    subscription.cancelRequestedBy &&
    state.status !== "canceled" &&
    !state.cancelScheduled
  ) {
    const next = await billing.scheduleCancel(state.id, kassaComment(subscription.cancelRequestedBy));
    await applyProviderState(db, subscription.id, next);
    return "scheduled_at_provider";
  }
  await applyProviderState(db, subscription.id, state);
  return "in_step";
}

async function createAtProvider(
  db: Db,
  billing: StripeBilling,
  subscription: Subscription,
): Promise<ReconcileResult> {
  try {
    if (!subscription.providerCustomerId || !subscription.providerPaymentMethodId)
      throw new ProviderError("The signup payment saved no card at the provider", "no_saved_card");
    // A sandbox test clock stands still between clock advances while the business's clock runs on:
    // bring it to the business's now, or Stripe would find the first renewal beyond its next period.
    const [business] = await db.select().from(businesses).where(eq(businesses.id, subscription.businessId));
    if (business?.mode === "sandbox") await advanceSandboxTestClock(db, business, businessNow(business));
    await billing.setDefaultPaymentMethod(
      subscription.providerCustomerId,
      subscription.providerPaymentMethodId,
    );
    const state = await billing.createSubscription({
      subscriptionId: subscription.id,
      businessId: subscription.businessId,
      customerId: subscription.providerCustomerId,
      paymentMethodId: subscription.providerPaymentMethodId,
      productName: subscription.items.map((i) => i.name).join(", ") || subscription.orderId,
      unitAmount: subscription.unitAmount,
      currency: subscription.currency,
      interval: subscription.interval,
      intervalCount: subscription.intervalCount,
      firstRenewalAt: parseDbTime(subscription.currentPeriodEnd ?? subscription.periodAnchor),
    });
    await rememberProviderObject(db, {
      provider: subscription.provider,
      objectId: state.id,
      businessId: subscription.businessId,
      kind: "subscription",
      sessionId: subscription.initialSessionId,
    });
    const after = await transactionWithJobs(db, async (tx) => {
      const { subscription: locked } = await lockSubscription(tx, subscription.id);
      if (locked.providerSubscriptionId) return locked;
      return updateSubscription(tx, locked.id, { providerSubscriptionId: state.id });
    });
    // Canceled or scheduled before or while the provider was being called: carry that over now.
    if (after.status === "canceled" || after.cancelAtPeriodEnd !== state.cancelScheduled)
      await reconcileProviderSubscription(db, subscription.id);
    return "created";
  } catch (error) {
    if (!(error instanceof ProviderError) || isUnavailable(error)) throw error;
    await failSetup(db, subscription.id, error.errorType);
    return "setup_failed";
  }
}

/** The provider will not take the subscription: it ends (`system`, `setup_failed:<code>`). */
export async function failSetup(db: Db, subscriptionId: string, code: string): Promise<void> {
  log.warn("subscription setup failed", { subscriptionId, code });
  await transactionWithJobs(db, async (tx) => {
    const { subscription, business } = await lockSubscription(tx, subscriptionId);
    if (subscription.providerSubscriptionId) return;
    await endSubscription(tx, business, subscription, {
      by: "system",
      reason: `setup_failed:${code}`,
      at: toDbTime(new Date(Date.now() + business.clockOffsetMs)),
    });
  });
}

// Job `setup_subscription`: payload {subscriptionId}.
export const setupSubscriptionJob: JobHandler = async (db, job) => {
  const subscriptionId = String(job.payload.subscriptionId ?? "");
  try {
    return { status: "done", note: await reconcileProviderSubscription(db, subscriptionId) };
  } catch (error) {
    if (error instanceof SubscriptionNotFoundError) return { status: "done", note: "no such subscription" };
    // Refused for good (e.g. Stripe not connected): a subscription not created yet ends here.
    if (error instanceof ProviderError && !isUnavailable(error)) {
      await failSetup(db, subscriptionId, error.errorType);
      return { status: "failed", error: error.message };
    }
    if (!isUnavailable(error)) throw error;
    // Unreachable: try again, and after the last attempt give up on the subscription.
    if (job.attempts >= job.maxAttempts) {
      await failSetup(db, subscriptionId, "provider_unavailable");
      return { status: "failed", error: "the provider stayed unreachable" };
    }
    return {
      status: "retry",
      at: new Date(Date.now() + errorBackoffMs(job.attempts)),
      note: (error as Error).message,
    };
  }
};
