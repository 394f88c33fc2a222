import type { Db } from "@/db/client";
import { subscriptionActors, type Subscription, type SubscriptionActor } from "@/db/schema";
import { enqueueJob, transactionWithJobs } from "@/lib/jobs/enqueue-job";
import type { ProviderSubscriptionState } from "@/lib/providers/stripe/stripe-billing";
import { parseDbTime, toDbTime } from "@/lib/time";
import { endSubscription, lockSubscription, updateSubscription } from "./subscription-records";

/** The actor Kassa wrote in the provider's cancellation comment (`kassa:api`), if any. */
export function actorOfComment(comment: string | null): SubscriptionActor | null {
  const actor = comment?.startsWith("kassa:") ? comment.slice("kassa:".length) : null;
  return subscriptionActors.find((a) => a === actor && a !== "provider") ?? null;
}

/** `cancellation_reason` of a cancellation requested by a Kassa actor. */
export function reasonOfActor(actor: SubscriptionActor, current: string | null): string {
  switch (actor) {
    case "api":
    case "manager":
      return "requested_by_merchant";
    case "payer":
      return "requested_by_customer";
    case "admin":
      return "admin";
    default:
      return current ?? "provider";
  }
}

/** A provider reason in the interface's words; unknown ones say only that the provider ended it. */
function providerReason(reason: string | null): string {
  if (reason === "payment_failed" || reason === "cancellation_requested") return reason;
  if (reason === "payment_disputed") return "provider";
  return "provider_deleted";
}

/**
 * The provider ended it before the end its scheduled cancellation was due (a cancel "now" from
 * its dashboard): not the scheduled cancellation taking effect. Stripe's own period end is used
 * when it has one (both in its seconds), else the row's; a second's slack for that rounding.
 */
export function endedBeforeScheduledEnd(
  subscription: Pick<Subscription, "currentPeriodEnd">,
  state: Pick<ProviderSubscriptionState, "endedAt" | "currentPeriodEnd">,
): boolean {
  const due = state.currentPeriodEnd ?? (subscription.currentPeriodEnd ? parseDbTime(subscription.currentPeriodEnd) : null);
  return !!state.endedAt && !!due && state.endedAt.getTime() < due.getTime() - 1000;
}

/**
 * Who ended a subscription the provider reports canceled, and why. An end the provider decided
 * itself (retries exhausted, a dispute) is the provider's, even when a Kassa actor had scheduled
 * one before: Stripe's reason outranks the `kassa:` comment. Otherwise the comment names the
 * Kassa actor, else the one who scheduled it, else the provider. A scheduled cancellation counts
 * only when it took effect: an end before its date that Kassa did not ask for (no cancel of ours
 * under way) is the provider dashboard's, and the comment Stripe kept from the scheduling names
 * no one then (the interface: canceled_by provider, reason cancellation_requested).
 */
export function whoEnded(
  subscription: Pick<
    Subscription,
    "cancelAtPeriodEnd" | "cancelRequestedBy" | "cancellationReason" | "pendingOp" | "currentPeriodEnd"
  >,
  state: Pick<ProviderSubscriptionState, "cancelComment" | "cancellationReason" | "endedAt" | "currentPeriodEnd">,
): { by: SubscriptionActor; reason: string } {
  if (state.cancellationReason === "payment_failed" || state.cancellationReason === "payment_disputed")
    return { by: "provider", reason: providerReason(state.cancellationReason) };
  const early = subscription.cancelAtPeriodEnd && endedBeforeScheduledEnd(subscription, state);
  const scheduledBy = subscription.cancelAtPeriodEnd && !early ? subscription.cancelRequestedBy : null;
  const commented = actorOfComment(state.cancelComment);
  const staleComment = early && subscription.pendingOp !== "cancel" && commented === subscription.cancelRequestedBy;
  const by = (staleComment ? null : commented) ?? scheduledBy ?? "provider";
  if (by === "provider")
    return {
      by,
      reason:
        subscription.cancelAtPeriodEnd && !early && subscription.cancellationReason
          ? subscription.cancellationReason
          : providerReason(state.cancellationReason),
    };
  const reason =
    subscription.pendingOp === "cancel" || !subscription.cancellationReason
      ? reasonOfActor(by, subscription.cancellationReason)
      : subscription.cancellationReason;
  return { by, reason };
}

/** Scheduled cancellations only the customer or support may withdraw: re-applied if undone at Stripe. */
const protectedRequesters: readonly SubscriptionActor[] = ["payer", "admin", "system"];

/**
 * Brings Kassa's row in line with the provider's current state of the subscription (re-read from
 * the provider by the caller, so events arriving twice or out of order converge). Under the
 * row's lock. Canceled is final. A scheduled cancellation withdrawn at the provider is re-applied
 * (by a `setup_subscription` reconcile job) when the customer or support scheduled it.
 */
export async function applyProviderState(
  db: Db,
  subscriptionId: string,
  state: ProviderSubscriptionState,
): Promise<Subscription> {
  return transactionWithJobs(db, async (tx) => {
    const { subscription, business } = await lockSubscription(tx, subscriptionId);
    if (subscription.status === "canceled") return subscription;
    if (state.status === "canceled") {
      const { by, reason } = whoEnded(subscription, state);
      return endSubscription(tx, business, subscription, {
        by,
        reason,
        at: toDbTime(state.endedAt ?? new Date(Date.now() + business.clockOffsetMs)),
      });
    }

    const set: Partial<Subscription> = {};
    if (state.status !== "other" && state.status !== subscription.status) set.status = state.status;
    // current_period_end moves forward only when a renewal is paid (recordRenewal): the provider
    // starts the next period before charging it, and a past-due one keeps its last paid period.
    if (!subscription.currentPeriodEnd && state.currentPeriodEnd)
      set.currentPeriodEnd = toDbTime(state.currentPeriodEnd);
    let reapply = false;
    if (state.cancelScheduled && !subscription.cancelAtPeriodEnd) {
      const actor = actorOfComment(state.cancelComment);
      set.cancelAtPeriodEnd = true;
      set.cancelRequestedBy = actor;
      set.cancellationReason = actor
        ? reasonOfActor(actor, subscription.cancellationReason)
        : (state.cancellationReason ?? "cancellation_requested");
    } else if (
      !state.cancelScheduled &&
      subscription.cancelAtPeriodEnd &&
      subscription.pendingOp !== "resume"
    ) {
      if (subscription.cancelRequestedBy && protectedRequesters.includes(subscription.cancelRequestedBy))
        reapply = true;
      else {
        set.cancelAtPeriodEnd = false;
        set.cancelRequestedBy = null;
        set.cancellationReason = null;
      }
    }
    const updated = Object.keys(set).length
      ? await updateSubscription(tx, subscription.id, set)
      : subscription;
    if (reapply)
      await enqueueJob(tx, {
        kind: "setup_subscription",
        businessId: business.id,
        payload: { subscriptionId: subscription.id },
        dedupeKey: `setup_subscription:${subscription.id}:reapply:${updated.version}`,
        maxAttempts: 12,
      });
    return updated;
  });
}
