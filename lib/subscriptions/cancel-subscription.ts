import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import type { Subscription } from "@/db/schema";
import { ForbiddenError, SubscriptionUpdateFailedError } from "@/lib/errors";
import { toDbTime } from "@/lib/time";
import { reasonOfActor } from "./apply-provider-state";
import { changeAtProvider } from "./change-at-provider";
import { kassaComment } from "./set-up-subscription";
import { endSubscription, updateSubscription } from "./subscription-records";

/** Who asks: the business's backend, its dashboard, service support, or the customer's link. */
export type CancelActor = "api" | "manager" | "admin" | "payer";

/**
 * Cancels a subscription (POST /subscriptions/{id}/cancel, the dashboard, support, the
 * management page), per the interface's cancel table:
 * - at period end (default): `cancel_at_period_end` true, `cancel_requested_by` the actor, its
 *   reason; no event now. Already scheduled: nothing changes (the first requester is kept).
 * - now: `canceled` at once, unpaid invoices voided at the provider, `subscription_canceled` sent,
 *   no refund. Also valid when already scheduled (`cancel_requested_by` unchanged).
 * The customer may only schedule, and only an active subscription. 409 when already canceled.
 */
export async function cancelSubscription(
  db: Db,
  businessId: string,
  subscriptionId: string,
  options: { atPeriodEnd: boolean; by: CancelActor },
): Promise<Subscription> {
  const { atPeriodEnd, by } = options;
  if (by === "payer" && !atPeriodEnd)
    throw new ForbiddenError(
      "immediate_cancel_not_allowed",
      "The customer can only cancel at the end of the period",
    );
  const reason = reasonOfActor(by, null);
  const audit = (tx: Db, s: Subscription, changes: Record<string, { from: unknown; to: unknown }>) =>
    recordAudit(tx, { businessId, action: "subscription.cancel", target: { type: "subscription", id: s.id }, changes });
  const schedule = async (tx: Db, s: Subscription) =>
    (await audit(tx, s, { cancel_at_period_end: { from: s.cancelAtPeriodEnd, to: true } })) ??
    updateSubscription(tx, s.id, {
      cancelAtPeriodEnd: true,
      cancelRequestedBy: by,
      cancellationReason: reason,
    });
  const end = async (tx: Db, s: Subscription, business: Parameters<typeof endSubscription>[1], at?: Date | null) =>
    (await audit(tx, s, { status: { from: s.status, to: "canceled" } })) ??
    endSubscription(tx, business, s, {
      by,
      reason,
      at: toDbTime(at ?? new Date(Date.now() + business.clockOffsetMs)),
    });

  return changeAtProvider(
    db,
    businessId,
    subscriptionId,
    atPeriodEnd ? "schedule" : "cancel",
    async (tx, subscription, business) => {
      if (subscription.status === "canceled")
        throw new SubscriptionUpdateFailedError("conflict", "The subscription is already canceled");
      if (by === "payer" && subscription.status !== "active")
        throw new SubscriptionUpdateFailedError(
          "conflict",
          "Only an active subscription can be canceled here",
        );
      if (atPeriodEnd && subscription.cancelAtPeriodEnd) return { done: subscription };
      // Not at the provider yet: the setup job carries this over when it creates it (or not at all).
      if (!subscription.providerSubscriptionId)
        return {
          done: atPeriodEnd ? await schedule(tx, subscription) : await end(tx, subscription, business),
        };
      return {
        call: (billing, providerId) =>
          atPeriodEnd
            ? billing.scheduleCancel(providerId, kassaComment(by))
            : billing.cancelNow(providerId, kassaComment(by)),
      };
    },
    async (tx, subscription, business, state) => {
      if (subscription.status === "canceled") return subscription;
      if (!atPeriodEnd) return end(tx, subscription, business, state.endedAt);
      if (state.status === "canceled") return end(tx, subscription, business, state.endedAt);
      return schedule(tx, subscription);
    },
  );
}
