import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import type { Subscription } from "@/db/schema";
import { ForbiddenError, SubscriptionUpdateFailedError } from "@/lib/errors";
import { changeAtProvider } from "./change-at-provider";
import type { CancelActor } from "./cancel-subscription";
import { resumeRefusal } from "./resume-refusal";
import { updateSubscription } from "./subscription-records";

/**
 * Withdraws a scheduled cancellation (POST /subscriptions/{id}/resume, the dashboard, support,
 * the management page), if `resumeRefusal` allows it (403 otherwise). Nothing scheduled: 200
 * unchanged. Canceled or not active: 409.
 */
export async function resumeSubscription(
  db: Db,
  businessId: string,
  subscriptionId: string,
  options: { by: CancelActor },
): Promise<Subscription> {
  const unschedule = async (tx: Db, s: Subscription) =>
    (await recordAudit(tx, { businessId, action: "subscription.resume", target: { type: "subscription", id: s.id }, changes: { cancel_at_period_end: { from: true, to: false } } })) ??
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
      const refusal = resumeRefusal(options.by, subscription.cancelRequestedBy);
      if (refusal) throw new ForbiddenError("resume_not_allowed", refusal);
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
