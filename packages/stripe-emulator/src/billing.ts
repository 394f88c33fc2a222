import type Stripe from "stripe";
import { hardDeclineCodes } from "./cards";
import { emit, snapshot } from "./events";
import { newObjectId } from "./ids";
import { listOf } from "./list";
import { type ConfirmResult, confirmIntent, createIntent } from "./payments";
import type { Interval } from "./resources/products";
import { invoicePageUrls } from "./invoice-pages";
import { dueRefundFailures } from "./resources/refund-failures";
import { type Ctx, idOf, timeOn } from "./state";

/**
 * Stripe Billing as the emulator plays it: subscriptions, their invoices, renewal at each period
 * end, collection with the default payment method, retries on the account's schedule, and the
 * end of a subscription (scheduled, immediate, or after the last failed retry).
 */

const day = 86_400;

/** `anchor` moved by `times` × `count` intervals; month ends clamp (Jan 31 → Feb 28 → Mar 31). */
export function addIntervals(anchor: number, interval: Interval, count: number, times: number): number {
  if (interval === "day") return anchor + day * count * times;
  if (interval === "week") return anchor + 7 * day * count * times;
  const date = new Date(anchor * 1000);
  const months = date.getUTCMonth() + (interval === "month" ? count : 12 * count) * times;
  const year = date.getUTCFullYear() + Math.floor(months / 12);
  const month = ((months % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return (
    Date.UTC(
      year,
      month,
      Math.min(date.getUTCDate(), lastDay),
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
    ) / 1000
  );
}

/** The first billing date (anchor + k intervals, k ≥ 0) strictly after `after`. */
export function nextBillingDate(anchor: number, interval: Interval, count: number, after: number): number {
  if (anchor > after) return anchor;
  const approxLength = { day, week: 7 * day, month: 28 * day, year: 365 * day }[interval] * count;
  let k = Math.max(1, Math.floor((after - anchor) / approxLength) - 1);
  while (addIntervals(anchor, interval, count, k) <= after) k++;
  while (k > 1 && addIntervals(anchor, interval, count, k - 1) > after) k--;
  return addIntervals(anchor, interval, count, k);
}

export function recurringOf(subscription: Stripe.Subscription): {
  interval: Interval;
  interval_count: number;
} {
  const recurring = subscription.items.data[0]?.price.recurring;
  return {
    interval: (recurring?.interval ?? "month") as Interval,
    interval_count: recurring?.interval_count ?? 1,
  };
}

export const periodOf = (subscription: Stripe.Subscription) => ({
  start: subscription.items.data[0]?.current_period_start ?? subscription.start_date,
  end: subscription.items.data[0]?.current_period_end ?? subscription.start_date,
});

function setPeriod(subscription: Stripe.Subscription, start: number, end: number): void {
  for (const item of subscription.items.data) {
    item.current_period_start = start;
    item.current_period_end = end;
  }
}

const formatAmount = (amount: number, currency: string) =>
  `${currency === "usd" ? "$" : `${currency.toUpperCase()} `}${(amount / 100).toFixed(2)}`;

function productName(ctx: Ctx, price: Stripe.Price): string {
  const productId = idOf(price.product as string | { id: string });
  return (productId && ctx.account.store.get("product", productId)?.name) || "Subscription";
}

function planOf(price: Stripe.Price): Stripe.Plan {
  return {
    id: price.id,
    object: "plan",
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: "per_unit",
    created: price.created,
    currency: price.currency,
    interval: price.recurring?.interval ?? "month",
    interval_count: price.recurring?.interval_count ?? 1,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: "licensed",
  };
}

interface LineInput {
  amount: number;
  description: string;
  start: number;
  end: number;
  item: Stripe.SubscriptionItem;
  proration: boolean;
}

function itemLines(ctx: Ctx, subscription: Stripe.Subscription, start: number, end: number): LineInput[] {
  return subscription.items.data.map((item) => {
    const quantity = item.quantity ?? 1;
    const unit = item.price.unit_amount ?? 0;
    const recurring = item.price.recurring;
    const every =
      recurring && recurring.interval_count > 1
        ? `every ${recurring.interval_count} ${recurring.interval}s`
        : (recurring?.interval ?? "");
    return {
      amount: unit * quantity,
      description: `${quantity} × ${productName(ctx, item.price)} (at ${formatAmount(unit, item.price.currency)} / ${every})`,
      start,
      end,
      item,
      proration: false,
    };
  });
}

function createInvoice(
  ctx: Ctx,
  subscription: Stripe.Subscription,
  {
    billingReason,
    lines,
    periodStart,
    periodEnd,
    id = newObjectId("in"),
  }: {
    billingReason: Stripe.Invoice.BillingReason;
    lines: LineInput[];
    periodStart: number;
    periodEnd: number;
    id?: string;
  },
): Stripe.Invoice {
  const customerId = idOf(subscription.customer as string);
  const customer = customerId ? ctx.account.store.get("customer", customerId) : undefined;
  const created = timeOn(ctx, idOf(subscription.test_clock as string | null));
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  const startingBalance = customer?.balance ?? 0;
  const amountDue = Math.max(0, total + startingBalance);
  const invoice: Stripe.Invoice = {
    id,
    object: "invoice",
    account_country: "US",
    account_name: "Stripe emulator",
    account_tax_ids: null,
    amount_due: amountDue,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: amountDue,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: billingReason,
    collection_method: "charge_automatically",
    created,
    currency: subscription.currency,
    custom_fields: null,
    customer: customerId,
    customer_account: null,
    customer_address: customer?.address ?? null,
    customer_email: customer?.email ?? null,
    customer_name: customer?.name ?? null,
    customer_phone: customer?.phone ?? null,
    customer_shipping: null,
    customer_tax_exempt: "none",
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: null,
    ending_balance: null,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: "self" },
    last_finalization_error: null,
    latest_revision: null,
    lines: listOf(
      lines.map((line): Stripe.InvoiceLineItem => ({
        id: newObjectId("il"),
        object: "line_item",
        amount: line.amount,
        currency: subscription.currency,
        description: line.description,
        discount_amounts: [],
        discountable: true,
        discounts: [],
        invoice: id,
        livemode: false,
        metadata: {},
        parent: {
          invoice_item_details: null,
          subscription_item_details: {
            invoice_item: null,
            proration: line.proration,
            proration_details: { credited_items: null },
            subscription: subscription.id,
            subscription_item: line.item.id,
          },
          type: "subscription_item_details",
        },
        period: { end: line.end, start: line.start },
        pretax_credit_amounts: [],
        pricing: {
          price_details: {
            price: line.item.price.id,
            product: idOf(line.item.price.product as string) ?? "",
          },
          type: "price_details",
          unit_amount_decimal: line.item.price.unit_amount_decimal,
        },
        quantity: line.item.quantity ?? 1,
        quantity_decimal: null,
        subscription: subscription.id,
        subtotal: line.amount,
        taxes: [],
      })),
      `/v1/invoices/${id}/lines`,
    ),
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: null,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: { ...subscription.metadata }, subscription: subscription.id },
      type: "subscription_details",
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: periodEnd,
    period_start: periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: startingBalance,
    statement_descriptor: null,
    status: "draft",
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: total,
    subtotal_excluding_tax: total,
    test_clock: subscription.test_clock,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: created,
  };
  ctx.account.store.insert("invoice", invoice);
  emit(ctx, "invoice.created", invoice, { created });
  return invoice;
}

export function finalizeInvoice(ctx: Ctx, invoice: Stripe.Invoice): void {
  const created = timeOn(ctx, idOf(invoice.test_clock as string | null));
  const before = snapshot(invoice);
  const customer = invoice.customer
    ? ctx.account.store.get("customer", idOf(invoice.customer as string) ?? "")
    : undefined;
  if (customer) {
    const sequence = customer.next_invoice_sequence ?? 1;
    invoice.number = `${customer.invoice_prefix ?? "INV"}-${String(sequence).padStart(4, "0")}`;
    customer.next_invoice_sequence = sequence + 1;
    // The customer's balance is applied to (or, for a credit note-like negative total, grown by) the invoice.
    invoice.ending_balance = Math.min(0, invoice.total + invoice.starting_balance);
    customer.balance = invoice.ending_balance;
  }
  invoice.status = "open";
  invoice.effective_at = created;
  invoice.automatically_finalizes_at = null;
  invoice.status_transitions.finalized_at = created;
  const pages = invoicePageUrls(ctx, invoice.id);
  invoice.hosted_invoice_url = pages.hosted;
  invoice.invoice_pdf = pages.pdf;
  emit(ctx, "invoice.finalized", invoice, { created });
  emit(ctx, "invoice.updated", invoice, { created, before });
  if (invoice.amount_due === 0) markInvoicePaid(ctx, invoice, null);
}

function subscriptionOfInvoice(ctx: Ctx, invoice: Stripe.Invoice): Stripe.Subscription | undefined {
  const id = idOf(invoice.parent?.subscription_details?.subscription as string | undefined);
  return id ? ctx.account.store.get("subscription", id) : undefined;
}

function setSubscriptionStatus(
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

function markInvoicePaid(
  ctx: Ctx,
  invoice: Stripe.Invoice,
  intent: Stripe.PaymentIntent | null,
  { outOfBand = false }: { outOfBand?: boolean } = {},
): void {
  const created = timeOn(ctx, idOf(invoice.test_clock as string | null));
  const before = snapshot(invoice);
  invoice.status = "paid";
  invoice.amount_paid = invoice.amount_due;
  invoice.amount_remaining = 0;
  invoice.next_payment_attempt = null;
  invoice.status_transitions.paid_at = created;
  if (intent) {
    const payment = ctx.account.store
      .all("invoice_payment")
      .find((p) => p.payment.payment_intent === intent.id);
    if (payment) {
      payment.status = "paid";
      payment.amount_paid = intent.amount_received;
      payment.status_transitions.paid_at = created;
      emit(ctx, "invoice_payment.paid", payment, { created });
    }
  }
  emit(ctx, "invoice.updated", invoice, { created, before });
  emit(ctx, "invoice.paid", invoice, { created });
  if (!outOfBand) emit(ctx, "invoice.payment_succeeded", invoice, { created });
  const subscription = subscriptionOfInvoice(ctx, invoice);
  if (subscription && idOf(subscription.latest_invoice as string | null) === invoice.id) {
    if (
      intent?.payment_method &&
      invoice.billing_reason === "subscription_create" &&
      subscription.payment_settings?.save_default_payment_method === "on_subscription"
    ) {
      // Stripe saves the first invoice's payment method as the subscription's default.
      const before = snapshot(subscription);
      subscription.default_payment_method = idOf(intent.payment_method as string);
      if (subscription.status !== "incomplete") {
        emit(ctx, "customer.subscription.updated", subscription, { created, before });
      }
    }
    if (["incomplete", "past_due", "unpaid"].includes(subscription.status)) {
      const inTrial = subscription.trial_end !== null && subscription.trial_end > created;
      setSubscriptionStatus(ctx, subscription, inTrial ? "trialing" : "active");
    }
  }
}

/**
 * After a failed attempt: the next retry on the account's schedule, or, once retries are spent
 * (or the decline is a hard one), the account's final action on the subscription.
 */
function markInvoiceFailed(
  ctx: Ctx,
  invoice: Stripe.Invoice,
  intent: Stripe.PaymentIntent,
  { requiresAction, before }: { requiresAction: boolean; before: Stripe.Invoice },
): void {
  const created = timeOn(ctx, idOf(invoice.test_clock as string | null));
  const subscription = subscriptionOfInvoice(ctx, invoice);
  const renewal = invoice.billing_reason === "subscription_cycle";
  const declineCode = intent.last_payment_error?.decline_code;
  const delays = ctx.account.billing.retryDelaysSeconds;
  const retriesLeft =
    invoice.attempt_count - 1 < delays.length && !(declineCode && hardDeclineCodes.has(declineCode));
  invoice.next_payment_attempt =
    renewal && retriesLeft ? created + (delays[invoice.attempt_count - 1] ?? 0) : null;
  emit(ctx, "invoice.updated", invoice, { created, before });
  emit(ctx, "invoice.payment_failed", invoice, { created });
  if (requiresAction) emit(ctx, "invoice.payment_action_required", invoice, { created });
  if (!subscription || !renewal) return;
  if (["active", "trialing"].includes(subscription.status))
    setSubscriptionStatus(ctx, subscription, "past_due");
  if (invoice.next_payment_attempt !== null || subscription.status === "canceled") return;
  const after = ctx.account.billing.afterRetries;
  if (after === "cancel") endSubscription(ctx, subscription, { reason: "payment_failed" });
  else if (after === "mark_unpaid") setSubscriptionStatus(ctx, subscription, "unpaid");
}

/** One collection attempt of an open invoice with the subscription's (or customer's) default card. */
export function collectInvoice(
  ctx: Ctx,
  invoice: Stripe.Invoice,
  { offSession, paymentMethod: chosen }: { offSession: boolean; paymentMethod?: string },
): ConfirmResult["outcome"] {
  const before = snapshot(invoice);
  const subscription = subscriptionOfInvoice(ctx, invoice);
  const customerId = idOf(invoice.customer as string | null);
  const customer = customerId ? ctx.account.store.get("customer", customerId) : undefined;
  const paymentMethod =
    chosen ??
    idOf(subscription?.default_payment_method as string | null) ??
    idOf(customer?.invoice_settings.default_payment_method as string | null);
  const intent = invoiceIntent(ctx, invoice);
  invoice.attempt_count += 1;
  invoice.attempted = true;

  if (!paymentMethod) {
    // Nothing to charge: the attempt fails and the retry schedule runs, as on Stripe.
    intent.status = "requires_payment_method";
    markInvoiceFailed(ctx, invoice, intent, { requiresAction: false, before });
    return "failed";
  }
  intent.payment_method = paymentMethod;
  intent.status = "requires_confirmation";
  const result = confirmIntent(ctx, intent, { offSession, forInvoice: true });
  if (result.outcome === "succeeded") markInvoicePaid(ctx, invoice, intent);
  else
    markInvoiceFailed(ctx, invoice, intent, { requiresAction: result.outcome === "requires_action", before });
  return result.outcome;
}

/** The PaymentIntent that collects an open invoice (created with its InvoicePayment on first need). */
export function invoiceIntent(ctx: Ctx, invoice: Stripe.Invoice): Stripe.PaymentIntent {
  const customerId = idOf(invoice.customer as string | null);
  let payment = ctx.account.store
    .all("invoice_payment")
    .find((p) => p.invoice === invoice.id && p.is_default);
  let intent = payment
    ? ctx.account.store.get("payment_intent", String(payment.payment.payment_intent))
    : undefined;
  if (!intent) {
    intent = createIntent(ctx, {
      amount: invoice.amount_due,
      currency: invoice.currency,
      customer: customerId,
      paymentMethod: null,
      description:
        invoice.billing_reason === "subscription_create" ? "Subscription creation" : "Subscription update",
      metadata: {},
      setupFutureUsage: null,
      captureMethod: "automatic",
      automaticPaymentMethods: null,
      allowedPaymentMethodTypes: null,
      paymentMethodTypes: ["card"],
      receiptEmail: null,
    });
    ctx.account.invoiceByPaymentIntent.set(intent.id, invoice.id);
    payment = {
      id: newObjectId("inpay"),
      object: "invoice_payment",
      amount_paid: null,
      amount_requested: invoice.amount_due,
      created: intent.created,
      currency: invoice.currency,
      invoice: invoice.id,
      is_default: true,
      livemode: false,
      payment: { payment_intent: intent.id, type: "payment_intent" },
      status: "open",
      status_transitions: { canceled_at: null, paid_at: null },
    };
    ctx.account.store.insert("invoice_payment", payment);
  }
  return intent;
}

/** `paid_out_of_band`: paid outside Stripe; nothing is charged and its open PaymentIntent is canceled. */
export function payInvoiceOutOfBand(ctx: Ctx, invoice: Stripe.Invoice): void {
  const at = timeOn(ctx, idOf(invoice.test_clock as string | null));
  cancelOpenPayments(ctx, invoice, at, "void_invoice");
  markInvoicePaid(ctx, invoice, null, { outOfBand: true });
}

export function markUncollectible(ctx: Ctx, invoice: Stripe.Invoice): void {
  const at = timeOn(ctx, idOf(invoice.test_clock as string | null));
  const before = snapshot(invoice);
  invoice.status = "uncollectible";
  invoice.next_payment_attempt = null;
  invoice.auto_advance = false;
  invoice.status_transitions.marked_uncollectible_at = at;
  emit(ctx, "invoice.updated", invoice, { created: at, before });
  emit(ctx, "invoice.marked_uncollectible", invoice, { created: at });
}

/**
 * When a PaymentIntent of an invoice succeeds outside collection (the customer completed 3D
 * Secure, or the PaymentIntent was confirmed through the API), the invoice is paid.
 */
export function settleInvoiceOfIntent(ctx: Ctx, intent: Stripe.PaymentIntent): void {
  const invoiceId = ctx.account.invoiceByPaymentIntent.get(intent.id);
  const invoice = invoiceId ? ctx.account.store.get("invoice", invoiceId) : undefined;
  if (!invoice || invoice.status !== "open") return;
  if (intent.status === "succeeded") markInvoicePaid(ctx, invoice, intent);
}

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
  const items = input.items.map((item): Stripe.SubscriptionItem => ({
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
  const subscription: Stripe.Subscription = {
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

/** At the end of a period: end the subscription if scheduled, else start the next period and bill it. */
function renewSubscription(ctx: Ctx, subscription: Stripe.Subscription): void {
  const { end } = periodOf(subscription);
  const at = timeOn(ctx, idOf(subscription.test_clock as string | null));
  if (subscription.cancel_at !== null && subscription.cancel_at <= at) {
    endSubscription(ctx, subscription, {
      reason: subscription.cancellation_details?.reason ?? "cancellation_requested",
    });
    return;
  }
  const before = snapshot(subscription);
  const { interval, interval_count } = recurringOf(subscription);
  const nextEnd = nextBillingDate(subscription.billing_cycle_anchor, interval, interval_count, end);
  setPeriod(subscription, end, nextEnd);
  if (subscription.status === "trialing") subscription.status = "active";
  const invoice = createInvoice(ctx, subscription, {
    billingReason: "subscription_cycle",
    lines: itemLines(ctx, subscription, end, nextEnd),
    periodStart: before.items.data[0]?.current_period_start ?? end,
    periodEnd: end,
  });
  subscription.latest_invoice = invoice.id;
  emit(ctx, "customer.subscription.updated", subscription, { created: at, before });
  if (subscription.status === "unpaid") {
    // Stripe keeps creating invoices for unpaid subscriptions but leaves them as drafts.
    invoice.auto_advance = false;
    return;
  }
  // Stripe leaves a renewal invoice in draft for an hour before finalizing and charging it.
  invoice.automatically_finalizes_at = at + draftWindow;
}

const draftWindow = 3600;

/** A draft's hour is up (or it is finalized through the API with auto_advance): finalize, then charge. */
export function advanceDraft(ctx: Ctx, invoice: Stripe.Invoice): void {
  finalizeInvoice(ctx, invoice);
  if (invoice.status === "open" && invoice.auto_advance) collectInvoice(ctx, invoice, { offSession: true });
}

/** Incomplete subscriptions expire 23 hours after creation; their first invoice is voided. */
function expireIncomplete(ctx: Ctx, subscription: Stripe.Subscription): void {
  const at = timeOn(ctx, idOf(subscription.test_clock as string | null));
  const invoiceId = idOf(subscription.latest_invoice as string | null);
  const invoice = invoiceId ? ctx.account.store.get("invoice", invoiceId) : undefined;
  if (invoice?.status === "open") voidInvoice(ctx, invoice);
  const before = snapshot(subscription);
  subscription.status = "incomplete_expired";
  subscription.ended_at = at;
  emit(ctx, "customer.subscription.updated", subscription, { created: at, before });
}

export function voidInvoice(ctx: Ctx, invoice: Stripe.Invoice): void {
  const at = timeOn(ctx, idOf(invoice.test_clock as string | null));
  invoice.status = "void";
  invoice.amount_remaining = 0;
  invoice.next_payment_attempt = null;
  invoice.auto_advance = false;
  invoice.status_transitions.voided_at = at;
  cancelOpenPayments(ctx, invoice, at, "void_invoice");
  emit(ctx, "invoice.voided", invoice, { created: at });
}

function cancelOpenPayments(
  ctx: Ctx,
  invoice: Stripe.Invoice,
  at: number,
  reason: Stripe.PaymentIntent.CancellationReason,
): void {
  for (const payment of ctx.account.store.all("invoice_payment")) {
    if (payment.invoice !== invoice.id || payment.status !== "open") continue;
    payment.status = "canceled";
    payment.status_transitions.canceled_at = at;
    const intent = ctx.account.store.get("payment_intent", String(payment.payment.payment_intent));
    if (intent && !["succeeded", "canceled"].includes(intent.status)) {
      intent.status = "canceled";
      intent.canceled_at = at;
      intent.cancellation_reason = reason;
      intent.next_action = null;
      emit(ctx, "payment_intent.canceled", intent, { created: at });
    }
  }
}

const incompleteLifetime = 23 * 3600;

/** The next piece of billing work due in one time domain (a test clock, or real time when null). */
export function nextDueWork(ctx: Ctx, clockId: string | null): { at: number; run: () => void } | undefined {
  let next: { at: number; run: () => void } | undefined;
  const consider = (at: number, run: () => void) => {
    if (!next || at < next.at) next = { at, run };
  };
  for (const invoice of ctx.account.store.all("invoice")) {
    if (idOf(invoice.test_clock as string | null) !== clockId) continue;
    if (invoice.status === "draft" && invoice.auto_advance && invoice.automatically_finalizes_at !== null) {
      consider(invoice.automatically_finalizes_at, () => advanceDraft(ctx, invoice));
    }
    if (invoice.status === "open" && invoice.auto_advance && invoice.next_payment_attempt !== null) {
      consider(invoice.next_payment_attempt, () => collectInvoice(ctx, invoice, { offSession: true }));
    }
  }
  for (const failure of dueRefundFailures(ctx, clockId)) consider(failure.at, failure.run);
  for (const subscription of ctx.account.store.all("subscription")) {
    if (idOf(subscription.test_clock as string | null) !== clockId) continue;
    if (subscription.status === "incomplete") {
      consider(subscription.created + incompleteLifetime, () => expireIncomplete(ctx, subscription));
    } else if (["active", "trialing", "past_due", "unpaid"].includes(subscription.status)) {
      const { end } = periodOf(subscription);
      const at = subscription.cancel_at !== null ? Math.min(end, subscription.cancel_at) : end;
      consider(at, () => renewSubscription(ctx, subscription));
    }
  }
  return next;
}
