import type Stripe from "stripe";
import { emit, snapshot } from "../events";
import { type Ctx, idOf, timeOn } from "../state";

export function subscriptionOfInvoice(ctx: Ctx, invoice: Stripe.Invoice): Stripe.Subscription | undefined {
  const id = idOf(invoice.parent?.subscription_details?.subscription as string | undefined);
  return id ? ctx.account.store.get("subscription", id) : undefined;
}

export function setSubscriptionStatus(
  ctx: Ctx,
  subscription: Stripe.Subscription,
  status: Stripe.Subscription.Status,
): void {
  if (subscription.status === status) return;
  const before = snapshot(subscription);
  subscription.status = status;
  emit(ctx, "customer.subscription.updated", subscription, {
    created: timeOn(ctx, idOf(subscription.test_clock as string | null)),
    before,
  });
}

/** Ends a subscription now: no more invoices, and Stripe stops collecting its open invoices. */
export function endSubscription(
  ctx: Ctx,
  subscription: Stripe.Subscription,
  {
    reason,
    comment,
    feedback,
  }: {
    reason: Stripe.Subscription.CancellationDetails.Reason;
    comment?: string | null;
    feedback?: Stripe.Subscription.CancellationDetails.Feedback | null;
  },
): void {
  const at = timeOn(ctx, idOf(subscription.test_clock as string | null));
  subscription.status = "canceled";
  subscription.ended_at = at;
  subscription.canceled_at = subscription.canceled_at ?? at;
  subscription.cancellation_details = {
    comment: comment !== undefined ? comment : (subscription.cancellation_details?.comment ?? null),
    feedback: feedback !== undefined ? feedback : (subscription.cancellation_details?.feedback ?? null),
    feedback_option: null,
    reason,
  };
  for (const invoice of ctx.account.store.all("invoice")) {
    if (subscriptionOfInvoice(ctx, invoice)?.id === subscription.id && invoice.status === "open") {
      invoice.auto_advance = false;
      invoice.next_payment_attempt = null;
    }
  }
  emit(ctx, "customer.subscription.deleted", subscription, { created: at });
}
