import type Stripe from "stripe";
import { type Ctx, idOf, timeOn } from "../state";
import { createInvoice } from "./create-invoice";
import { itemLines, productName } from "./invoice-lines";
import { finalizeInvoice } from "./invoice-outcomes";
import { periodOf } from "./periods";
import { endSubscription } from "./subscription-status";

/**
 * Immediate cancellation through the API. With `invoice_now` and `prorate`, a final invoice
 * credits the unused time to the customer's balance (no refund, as on Stripe).
 */
export function cancelSubscriptionNow(
  ctx: Ctx,
  subscription: Stripe.Subscription,
  options: {
    invoiceNow: boolean;
    prorate: boolean;
    comment?: string | null;
    feedback?: Stripe.Subscription.CancellationDetails.Feedback | null;
  },
): void {
  const at = timeOn(ctx, idOf(subscription.test_clock as string | null));
  const { start, end } = periodOf(subscription);
  subscription.canceled_at = at;
  endSubscription(ctx, subscription, {
    reason: "cancellation_requested",
    comment: options.comment,
    feedback: options.feedback,
  });
  if (options.invoiceNow && options.prorate && end > at && subscription.status === "canceled") {
    const share = (end - at) / (end - start);
    const lines = itemLines(ctx, subscription, at, end).map((line) => ({
      ...line,
      amount: -Math.round(line.amount * share),
      description: `Unused time on ${productName(ctx, line.item.price)} after ${new Date(at * 1000).toISOString().slice(0, 10)}`,
      proration: true,
    }));
    const invoice = createInvoice(ctx, subscription, {
      billingReason: "subscription_update",
      lines,
      periodStart: at,
      periodEnd: at,
    });
    finalizeInvoice(ctx, invoice);
    subscription.latest_invoice = invoice.id;
  }
}

/** Sets or clears an end-of-period cancellation (Stripe also sets `cancel_at` to the period end). */
export function scheduleCancellation(
  ctx: Ctx,
  subscription: Stripe.Subscription,
  atPeriodEnd: boolean,
): void {
  const at = timeOn(ctx, idOf(subscription.test_clock as string | null));
  subscription.cancel_at_period_end = atPeriodEnd;
  subscription.cancel_at = atPeriodEnd ? periodOf(subscription).end : null;
  subscription.canceled_at = atPeriodEnd ? at : null;
  subscription.cancellation_details = {
    comment: atPeriodEnd ? (subscription.cancellation_details?.comment ?? null) : null,
    feedback: atPeriodEnd ? (subscription.cancellation_details?.feedback ?? null) : null,
    feedback_option: null,
    reason: atPeriodEnd ? "cancellation_requested" : null,
  };
}
