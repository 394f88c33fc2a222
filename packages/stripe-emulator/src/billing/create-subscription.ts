import type Stripe from "stripe";
import { emit, snapshot } from "../events";
import { newObjectId } from "../ids";
import { listOf } from "../list";
import type { Interval } from "../resources/products";
import { type Ctx, idOf, timeOn } from "../state";
import { collectInvoice, invoiceIntent } from "./collect-invoice";
import { createInvoice } from "./create-invoice";
import { itemLines, type LineInput, planOf, productName } from "./invoice-lines";
import { finalizeInvoice } from "./invoice-outcomes";
import { addIntervals } from "./periods";

export interface SubscriptionInput {
  customer: Stripe.Customer;
  items: { price: Stripe.Price; quantity: number; metadata: Record<string, string> }[];
  defaultPaymentMethod: string | null;
  metadata: Record<string, string>;
  description: string | null;
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  trialEnd: number | null;
  billingCycleAnchor: number | null;
  prorate: boolean;
  paymentBehavior:
    "allow_incomplete" | "default_incomplete" | "error_if_incomplete" | "pending_if_incomplete";
  offSession: boolean;
  saveDefaultPaymentMethod: "off" | "on_subscription";
}

/**
 * A new subscription and its first invoice. With `trial_end` (or `billing_cycle_anchor` and no
 * proration) the first invoice is $0 and paid at once; otherwise the first period is charged now
 * and the subscription stays `incomplete` until that invoice is paid.
 */
export function createSubscription(ctx: Ctx, input: SubscriptionInput): Stripe.Subscription {
  const clock = idOf(input.customer.test_clock as string | null);
  const now = timeOn(ctx, clock);
  const id = newObjectId("sub");
  const first = input.items[0]?.price;
  const interval = (first?.recurring?.interval ?? "month") as Interval;
  const count = first?.recurring?.interval_count ?? 1;
  const anchor = input.trialEnd ?? input.billingCycleAnchor ?? now;
  const periodEnd = anchor > now ? anchor : addIntervals(now, interval, count, 1);
  const subscription = newSubscription(input, { id, clock, now, anchor, periodEnd });
  const lines = firstInvoiceLines(ctx, subscription, input, { now, periodEnd, interval, count });
  const amount = lines.reduce((sum, line) => sum + line.amount, 0);
  if (amount === 0) subscription.status = input.trialEnd ? "trialing" : "active";
  ctx.account.store.insert("subscription", subscription);
  subscription.latest_invoice = newObjectId("in");
  emit(ctx, "customer.subscription.created", subscription, { created: now });

  const invoice = createInvoice(ctx, subscription, {
    billingReason: "subscription_create",
    lines,
    periodStart: now,
    periodEnd: now,
    id: subscription.latest_invoice,
  });
  finalizeInvoice(ctx, invoice);
  if (invoice.status !== "open") return subscription;
  if (input.paymentBehavior === "default_incomplete") {
    // Paid by confirming this PaymentIntent (Stripe.js with confirmation_secret); the card is saved.
    const intent = invoiceIntent(ctx, invoice);
    intent.setup_future_usage = "off_session";
  } else {
    collectInvoice(ctx, invoice, { offSession: input.offSession });
  }
  return subscription;
}

/** The subscription's items, their first period starting now. */
function subscriptionItems(
  input: SubscriptionInput,
  { id, now, periodEnd }: { id: string; now: number; periodEnd: number },
): Stripe.SubscriptionItem[] {
  return input.items.map((item): Stripe.SubscriptionItem => ({
    id: newObjectId("si"),
    object: "subscription_item",
    billing_thresholds: null,
    created: now,
    current_period_end: periodEnd,
    current_period_start: now,
    current_trial: null,
    discounts: [],
    metadata: item.metadata,
    plan: planOf(item.price),
    price: snapshot(item.price),
    quantity: item.quantity,
    subscription: id,
    tax_rates: [],
  }));
}

/** The new subscription, `incomplete` until its first invoice says otherwise. */
function newSubscription(
  input: SubscriptionInput,
  {
    id,
    clock,
    now,
    anchor,
    periodEnd,
  }: { id: string; clock: string | null; now: number; anchor: number; periodEnd: number },
): Stripe.Subscription {
  const first = input.items[0]?.price;
  const items = subscriptionItems(input, { id, now, periodEnd });
  return {
    id,
    object: "subscription",
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: anchor,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: "classic" },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: input.cancelAtPeriodEnd ? periodEnd : input.cancelAt,
    cancel_at_period_end: input.cancelAtPeriodEnd,
    canceled_at: input.cancelAtPeriodEnd || input.cancelAt ? now : null,
    cancellation_details: {
      comment: null,
      feedback: null,
      feedback_option: null,
      reason: input.cancelAtPeriodEnd || input.cancelAt ? "cancellation_requested" : null,
    },
    collection_method: "charge_automatically",
    created: now,
    currency: first?.currency ?? "usd",
    customer: input.customer.id,
    customer_account: null,
    days_until_due: null,
    default_payment_method: input.defaultPaymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: input.description,
    discounts: [],
    ended_at: null,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: "self" },
    },
    items: listOf(items, `/v1/subscription_items?subscription=${id}`),
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: input.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: input.saveDefaultPaymentMethod,
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: now,
    status: "incomplete",
    test_clock: clock,
    transfer_data: null,
    trial_end: input.trialEnd,
    trial_settings: {
      end_behavior: { billing_cycle_anchor: null, missing_payment_method: "create_invoice" },
    },
    trial_start: input.trialEnd ? now : null,
  };
}

/** The first invoice's lines: the first period, free in a trial, prorated up to a billing cycle anchor. */
function firstInvoiceLines(
  ctx: Ctx,
  subscription: Stripe.Subscription,
  input: SubscriptionInput,
  { now, periodEnd, interval, count }: { now: number; periodEnd: number; interval: Interval; count: number },
): LineInput[] {
  let lines = itemLines(ctx, subscription, now, periodEnd);
  if (input.trialEnd) {
    lines = lines.map((line) => ({
      ...line,
      amount: 0,
      description: `Trial period for ${productName(ctx, line.item.price)}`,
    }));
  } else if (input.billingCycleAnchor) {
    const fullEnd = addIntervals(now, interval, count, 1);
    const share = (periodEnd - now) / (fullEnd - now);
    lines = lines.map((line) => ({
      ...line,
      amount: input.prorate ? Math.round(line.amount * share) : 0,
      description: `Remaining time on ${productName(ctx, line.item.price)} after ${new Date(now * 1000).toISOString().slice(0, 10)}`,
      proration: input.prorate,
    }));
  }
  return lines;
}
