import type { Db } from "@/db/client";
import type { Subscription, SubscriptionActor } from "@/db/schema";
import { ForbiddenError, SubscriptionUpdateFailedError } from "@/lib/errors";
import { changeAtProvider } from "./change-at-provider";
import type { CancelActor } from "./cancel-subscription";
import { updateSubscription } from "./subscription-records";

/** Whose scheduled cancellations each actor may withdraw. */
function mayResume(by: CancelActor, requestedBy: SubscriptionActor | null): boolean {
  if (by === "admin") return true;
  if (by === "payer") return requestedBy === "payer";
  return requestedBy === null || requestedBy === "api" || requestedBy === "manager";
}

/**
 * Withdraws a scheduled cancellation (POST /subscriptions/{id}/resume, the dashboard, support,
 * the management page). The business (api, manager) may withdraw its own or the provider
 * dashboard's (`cancel_requested_by` null), not the customer's, support's or the system's (403);
 * the customer only its own. Nothing scheduled: 200 unchanged. Canceled or not active: 409.
 */
export async function resumeSubscription(
  db: Db,
  businessId: string,
  subscriptionId: string,
  options: { by: CancelActor },
): Promise<Subscription> {
  const unschedule = (tx: Db, s: Subscription) =>
    updateSubscription(tx, s.id, {
      cancelAtPeriodEnd: false,
      cancelRequestedBy: null,
      cancellationReason: null,
    });
  return changeAtProvider(
    db,
    businessId,
    subscriptionId,
    "resume",
    async (tx, subscription) => {
      if (subscription.status === "canceled")
        throw new SubscriptionUpdateFailedError("conflict", "The subscription is already canceled");
      if (!subscription.cancelAtPeriodEnd) return { done: subscription };
      if (!mayResume(options.by, subscription.cancelRequestedBy))
        throw new ForbiddenError(
          "resume_not_allowed",
          subscription.cancelRequestedBy === "payer"
            ? "The customer scheduled this cancellation: only the customer can undo it"
            : "This cancellation was scheduled by service support: only support can undo it",
        );
      if (subscription.status !== "active")
        throw new SubscriptionUpdateFailedError("conflict", "Only an active subscription can be resumed");
      if (!subscription.providerSubscriptionId) return { done: await unschedule(tx, subscription) };
      return { call: (billing, providerId) => billing.resume(providerId) };
    },
    async (tx, subscription, _business, state) => {
      if (subscription.status === "canceled" || state.status === "canceled")
        throw new SubscriptionUpdateFailedError("conflict", "The subscription ended during the request");
      return unschedule(tx, subscription);
    },
  );
}
