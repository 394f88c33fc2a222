import type Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type StripeEmulator, startStripeEmulator } from "../src/index";
import {
  advanceTestClock,
  customerWithSavedCard,
  days,
  newSecretKey,
  sdkFor,
  startReceiver,
} from "../src/test-support";

let emulator: StripeEmulator;
const cleanups: (() => Promise<void>)[] = [];
/** A renewal invoice stays a draft this long before it is finalized and charged (Stripe's hour). */
const draftHour = 3600;

beforeAll(async () => {
  emulator = await startStripeEmulator();
});
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});
afterAll(() => emulator.close());

const kassaEvents: Stripe.WebhookEndpointCreateParams.EnabledEvent[] = [
  "invoice.paid",
  "invoice.payment_failed",
  "invoice.payment_action_required",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "payment_intent.succeeded",
];

/** An account with Kassa's webhook endpoint on a loopback receiver. */
async function account() {
  const key = newSecretKey();
  const stripe = sdkFor(emulator, key);
  const receiver = await startReceiver();
  cleanups.push(receiver.close);
  const endpoint = await stripe.webhookEndpoints.create({ url: receiver.url, enabled_events: kassaEvents });
  const secret = endpoint.secret ?? "";
  /** Deliveries received so far, each verified with the SDK the way Kassa's handler will. */
  const verified = () =>
    receiver.received.map((r) =>
      stripe.webhooks.constructEvent(r.body, String(r.headers["stripe-signature"]), secret),
    );
  return { key, stripe, receiver, endpoint, secret, verified };
}

async function monthlySubscription(
  stripe: Stripe,
  customer: Stripe.Customer,
  paymentMethod: string,
  clock: Stripe.TestHelpers.TestClock,
  extra: Partial<Stripe.SubscriptionCreateParams> = {},
) {
  const product = await stripe.products.create({ name: "Pro plan" });
  // Kassa charged the first period with a PaymentIntent: the subscription starts billing at its end.
  const firstPeriodEnd = Date.UTC(2030, 1, 15, 12) / 1000;
  expect(firstPeriodEnd).toBeGreaterThan(clock.frozen_time);
  return stripe.subscriptions.create({
    customer: customer.id,
    items: [
      {
        price_data: {
          currency: "usd",
          product: product.id,
          unit_amount: 2000,
          recurring: { interval: "month" },
        },
      },
    ],
    default_payment_method: paymentMethod,
    billing_cycle_anchor: firstPeriodEnd,
    proration_behavior: "none",
    metadata: { kassa_subscription: "psub_1" },
    ...extra,
  });
}

const periodEnd = (subscription: Stripe.Subscription) => subscription.items.data[0]?.current_period_end ?? 0;

describe("subscriptions on a test clock", () => {
  it("renews at each period end, charging the saved card, with signed invoice.paid webhooks", async () => {
    const { key, stripe, verified } = await account();
    const { clock, customer, first, paymentMethod } = await customerWithSavedCard(stripe);
    expect(first.status).toBe("succeeded");
    expect((await stripe.paymentMethods.retrieve(paymentMethod)).customer).toBe(customer.id);

    const subscription = await monthlySubscription(stripe, customer, paymentMethod, clock);
    expect(subscription.status).toBe("active");
    expect(subscription.test_clock).toBe(clock.id);
    expect(subscription.items.data[0]?.current_period_start).toBe(clock.frozen_time);
    expect(periodEnd(subscription)).toBe(Date.UTC(2030, 1, 15, 12) / 1000);
    const firstInvoice = await stripe.invoices.retrieve(String(subscription.latest_invoice));
    expect(firstInvoice).toMatchObject({
      status: "paid",
      amount_due: 0,
      billing_reason: "subscription_create",
    });

    await advanceTestClock(stripe, clock.id, periodEnd(subscription) + 3600);
    const renewed = await stripe.subscriptions.retrieve(subscription.id, {
      expand: ["latest_invoice.payments.data.payment.payment_intent"],
    });
    expect(renewed.status).toBe("active");
    expect(renewed.items.data[0]?.current_period_start).toBe(Date.UTC(2030, 1, 15, 12) / 1000);
    expect(periodEnd(renewed)).toBe(Date.UTC(2030, 2, 15, 12) / 1000);
    const invoice = renewed.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({
      status: "paid",
      amount_paid: 2000,
      billing_reason: "subscription_cycle",
      attempt_count: 1,
      customer: customer.id,
      parent: {
        subscription_details: { subscription: subscription.id, metadata: { kassa_subscription: "psub_1" } },
      },
    });
    expect(invoice.lines.data[0]?.period).toEqual({
      start: Date.UTC(2030, 1, 15, 12) / 1000,
      end: Date.UTC(2030, 2, 15, 12) / 1000,
    });
    const intent = invoice.payments?.data[0]?.payment.payment_intent as Stripe.PaymentIntent;
    expect(intent).toMatchObject({
      status: "succeeded",
      amount: 2000,
      customer: customer.id,
      payment_method: paymentMethod,
    });
    // Charged when the renewal invoice's draft hour is over, as on Stripe.
    expect(intent.created).toBe(Date.UTC(2030, 1, 15, 12) / 1000 + draftHour);

    const paid = verified().filter((event) => event.type === "invoice.paid");
    expect(paid.map((event) => (event.data.object as Stripe.Invoice).id)).toEqual([
      firstInvoice.id,
      invoice.id,
    ]);
    expect(verified().some((e) => e.type === "customer.subscription.updated")).toBe(true);
    expect(emulator.deliveries(key).every((delivery) => delivery.ok)).toBe(true);

    await advanceTestClock(stripe, clock.id, Date.UTC(2030, 3, 20) / 1000);
    const invoices = await stripe.invoices.list({ subscription: subscription.id });
    // Renewed on Mar 15 and Apr 15 in one advance, newest first.
    expect(invoices.data.map((i) => [i.status, i.amount_paid, i.period_end])).toEqual([
      ["paid", 2000, Date.UTC(2030, 3, 15, 12) / 1000],
      ["paid", 2000, Date.UTC(2030, 2, 15, 12) / 1000],
      ["paid", 2000, Date.UTC(2030, 1, 15, 12) / 1000],
      ["paid", 0, clock.frozen_time],
    ]);
    expect(periodEnd(await stripe.subscriptions.retrieve(subscription.id))).toBe(
      Date.UTC(2030, 4, 15, 12) / 1000,
    );
  });

  it("retries a failed renewal on the configured schedule, then cancels the subscription", async () => {
    const { key, stripe, verified } = await account();
    emulator.setBilling(key, { retryDelaysSeconds: [days(1), days(2)], afterRetries: "cancel" });
    const { clock, customer, paymentMethod } = await customerWithSavedCard(stripe);
    const subscription = await monthlySubscription(stripe, customer, paymentMethod, clock);
    // The card stops working after signup (via the dashboard helper, over HTTP).
    const response = await fetch(`${emulator.url}/_emulator/payment_methods/${paymentMethod}/behave_as`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ card_number: "4000000000000341" }),
    });
    expect(response.status).toBe(200);

    const end = periodEnd(subscription);
    await advanceTestClock(stripe, clock.id, end + draftHour + 60);
    let current = await stripe.subscriptions.retrieve(subscription.id, { expand: ["latest_invoice"] });
    expect(current.status).toBe("past_due");
    let invoice = current.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({
      status: "open",
      attempt_count: 1,
      next_payment_attempt: end + draftHour + days(1),
    });

    await advanceTestClock(stripe, clock.id, end + days(1) + draftHour + 60);
    invoice = await stripe.invoices.retrieve(invoice.id);
    expect(invoice).toMatchObject({
      status: "open",
      attempt_count: 2,
      next_payment_attempt: end + draftHour + days(3),
    });

    await advanceTestClock(stripe, clock.id, end + days(3) + draftHour + 60);
    current = await stripe.subscriptions.retrieve(subscription.id);
    expect(current.status).toBe("canceled");
    expect(current.cancellation_details?.reason).toBe("payment_failed");
    expect(current.ended_at).toBe(end + draftHour + days(3));

    const types = verified().map((event) => event.type);
    expect(types.filter((type) => type === "invoice.payment_failed")).toHaveLength(3);
    expect(types.at(-1)).toBe("customer.subscription.deleted");
    const failed = verified().find((event) => event.type === "invoice.payment_failed");
    expect((failed?.data.object as Stripe.Invoice).parent?.subscription_details?.subscription).toBe(
      subscription.id,
    );
  });

  it("a retry that succeeds makes the subscription active again; mark_unpaid otherwise", async () => {
    const { key, stripe } = await account();
    emulator.setBilling(key, { retryDelaysSeconds: [days(2)], afterRetries: "mark_unpaid" });
    const { clock, customer, paymentMethod } = await customerWithSavedCard(stripe);
    const recovering = await monthlySubscription(stripe, customer, paymentMethod, clock);
    emulator.setCardBehavior(key, paymentMethod, "4000000000009995");
    const end = periodEnd(recovering);
    await advanceTestClock(stripe, clock.id, end + draftHour + 60);
    expect((await stripe.subscriptions.retrieve(recovering.id)).status).toBe("past_due");
    emulator.setCardBehavior(key, paymentMethod, "4242424242424242");
    await advanceTestClock(stripe, clock.id, end + days(2) + draftHour + 60);
    const recovered = await stripe.subscriptions.retrieve(recovering.id, { expand: ["latest_invoice"] });
    expect(recovered.status).toBe("active");
    expect((recovered.latest_invoice as Stripe.Invoice).attempt_count).toBe(2);

    const other = await customerWithSavedCard(stripe);
    const unpaid = await monthlySubscription(stripe, other.customer, other.paymentMethod, other.clock);
    emulator.setCardBehavior(key, other.paymentMethod, "4000000000000002");
    await advanceTestClock(stripe, other.clock.id, end + days(2) + draftHour + 60);
    expect((await stripe.subscriptions.retrieve(unpaid.id)).status).toBe("unpaid");
  });

  it("renewals of a 3D Secure card fail with authentication_required (invoice.payment_action_required)", async () => {
    const { key, stripe, verified } = await account();
    const { clock, customer, first, paymentMethod } = await customerWithSavedCard(stripe, {
      cardToken: "pm_card_authenticationRequired",
    });
    expect(first.status).toBe("requires_action");
    expect(emulator.authenticatePaymentIntent(key, first.id).status).toBe("succeeded");
    const subscription = await monthlySubscription(stripe, customer, paymentMethod, clock);

    await advanceTestClock(stripe, clock.id, periodEnd(subscription) + draftHour + 60);
    const current = await stripe.subscriptions.retrieve(subscription.id, {
      expand: ["latest_invoice.payments.data.payment.payment_intent"],
    });
    expect(current.status).toBe("past_due");
    const invoice = current.latest_invoice as Stripe.Invoice;
    expect(invoice.status).toBe("open");
    const intent = invoice.payments?.data[0]?.payment.payment_intent as Stripe.PaymentIntent;
    expect(intent.status).toBe("requires_action");
    expect(intent.last_payment_error?.code).toBe("authentication_required");
    const types = verified().map((event) => event.type);
    expect(types).toContain("invoice.payment_action_required");
    expect(types).toContain("invoice.payment_failed");

    // The customer authenticates (hosted invoice page): the invoice is paid, the subscription active.
    emulator.authenticatePaymentIntent(key, intent.id);
    expect((await stripe.invoices.retrieve(invoice.id)).status).toBe("paid");
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe("active");
  });

  it("cancels at the period end when scheduled, and not before", async () => {
    const { stripe, verified } = await account();
    const { clock, customer, paymentMethod } = await customerWithSavedCard(stripe);
    const subscription = await monthlySubscription(stripe, customer, paymentMethod, clock);
    const scheduled = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(scheduled).toMatchObject({
      status: "active",
      cancel_at_period_end: true,
      cancel_at: periodEnd(subscription),
    });
    expect(scheduled.cancellation_details?.reason).toBe("cancellation_requested");

    const resumed = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false });
    expect(resumed).toMatchObject({ cancel_at_period_end: false, cancel_at: null, canceled_at: null });
    await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });

    await advanceTestClock(stripe, clock.id, periodEnd(subscription) - 60);
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe("active");
    await advanceTestClock(stripe, clock.id, periodEnd(subscription) + draftHour + 60);
    const ended = await stripe.subscriptions.retrieve(subscription.id);
    expect(ended).toMatchObject({
      status: "canceled",
      ended_at: periodEnd(subscription),
      cancel_at_period_end: true,
    });
    expect((await stripe.invoices.list({ subscription: subscription.id })).data).toHaveLength(1);
    const updates = verified().filter((e) => e.type === "customer.subscription.updated");
    expect(
      updates.map(
        (e) => (e.data.previous_attributes as { cancel_at_period_end?: boolean }).cancel_at_period_end,
      ),
    ).toEqual([false, true, false]);
    expect(verified().at(-1)?.type).toBe("customer.subscription.deleted");
  });

  it("immediate cancellation stops collection; the open invoice is then voided", async () => {
    const { key, stripe, verified } = await account();
    const { clock, customer, paymentMethod } = await customerWithSavedCard(stripe);
    const subscription = await monthlySubscription(stripe, customer, paymentMethod, clock);
    emulator.setCardBehavior(key, paymentMethod, "4000000000000002");
    await advanceTestClock(stripe, clock.id, periodEnd(subscription) + draftHour + 60);
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe("past_due");

    const canceled = await stripe.subscriptions.cancel(subscription.id, {
      invoice_now: false,
      prorate: false,
    });
    expect(canceled).toMatchObject({ status: "canceled", canceled_at: periodEnd(subscription) + draftHour + 60 });
    expect(canceled.cancellation_details?.reason).toBe("cancellation_requested");
    const open = await stripe.invoices.list({ subscription: subscription.id, status: "open" });
    expect(open.data).toHaveLength(1);
    expect(open.data[0]).toMatchObject({ auto_advance: false, next_payment_attempt: null });

    const voided = await stripe.invoices.voidInvoice(open.data[0]?.id ?? "");
    expect(voided.status).toBe("void");
    expect(voided.status_transitions.voided_at).toBe(periodEnd(subscription) + draftHour + 60);
    expect(emulator.events(key, "invoice.voided")).toHaveLength(1);

    const failuresBefore = emulator.events(key, "invoice.payment_failed").length;
    await advanceTestClock(stripe, clock.id, periodEnd(subscription) + days(40));
    expect(emulator.events(key, "invoice.payment_failed")).toHaveLength(failuresBefore);
    expect(verified().filter((e) => e.type === "customer.subscription.deleted")).toHaveLength(1);

    const error = await stripe.subscriptions
      .cancel(subscription.id)
      .catch((e: Stripe.errors.StripeError) => e);
    expect(error).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError" });
  });

  it("a cancellation from the provider dashboard emits customer.subscription.deleted", async () => {
    const { key, stripe, verified } = await account();
    const { clock, customer, paymentMethod } = await customerWithSavedCard(stripe);
    const subscription = await monthlySubscription(stripe, customer, paymentMethod, clock);
    const dashboard = (action: string, body: object = {}) =>
      fetch(`${emulator.url}/_emulator/subscriptions/${subscription.id}/${action}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await dashboard("cancel", { at_period_end: true })).status).toBe(200);
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({
      status: "active",
      cancel_at_period_end: true,
    });
    expect(emulator.resumeSubscriptionFromDashboard(key, subscription.id).cancel_at_period_end).toBe(false);
    expect((await dashboard("cancel")).status).toBe(200);
    await emulator.idle();
    const updates = verified().filter((e) => e.type === "customer.subscription.updated");
    expect(updates.map((e) => (e.data.object as Stripe.Subscription).cancel_at_period_end)).toEqual([
      true,
      false,
    ]);
    const deleted = verified().find((e) => e.type === "customer.subscription.deleted");
    expect(deleted?.data.object).toMatchObject({ id: subscription.id, status: "canceled" });
    expect(deleted?.request?.idempotency_key).toBeNull();
  });

  it("trial_end defers the first charge; a subscription without one is charged at once", async () => {
    const { stripe } = await account();
    const { clock, customer, paymentMethod } = await customerWithSavedCard(stripe);
    const trialEnd = clock.frozen_time + days(30);
    const trialing = await monthlySubscription(stripe, customer, paymentMethod, clock, {
      billing_cycle_anchor: undefined,
      proration_behavior: undefined,
      trial_end: trialEnd,
    });
    expect(trialing).toMatchObject({
      status: "trialing",
      trial_start: clock.frozen_time,
      trial_end: trialEnd,
    });
    await advanceTestClock(stripe, clock.id, trialEnd + draftHour + 60);
    const active = await stripe.subscriptions.retrieve(trialing.id, { expand: ["latest_invoice"] });
    expect(active.status).toBe("active");
    expect(active.latest_invoice).toMatchObject({ status: "paid", amount_paid: 2000 });

    const charged = await monthlySubscription(stripe, customer, paymentMethod, clock, {
      billing_cycle_anchor: undefined,
      proration_behavior: undefined,
      expand: ["latest_invoice"],
    });
    expect(charged.status).toBe("active");
    expect(charged.latest_invoice).toMatchObject({
      status: "paid",
      amount_paid: 2000,
      billing_reason: "subscription_create",
    });
  });

  it("a first payment that fails leaves the subscription incomplete (or refuses it with error_if_incomplete)", async () => {
    const { key, stripe } = await account();
    const { clock, customer, paymentMethod } = await customerWithSavedCard(stripe);
    emulator.setCardBehavior(key, paymentMethod, "4000000000000002");
    const base = { billing_cycle_anchor: undefined, proration_behavior: undefined } as const;
    const error = await monthlySubscription(stripe, customer, paymentMethod, clock, {
      ...base,
      payment_behavior: "error_if_incomplete",
    }).catch((e: Stripe.errors.StripeError) => e);
    expect(error).toMatchObject({ type: "StripeCardError", code: "card_declined" });
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(0);

    const incomplete = await monthlySubscription(stripe, customer, paymentMethod, clock, base);
    expect(incomplete.status).toBe("incomplete");
    await advanceTestClock(stripe, clock.id, clock.frozen_time + days(1));
    expect((await stripe.subscriptions.retrieve(incomplete.id)).status).toBe("incomplete_expired");
    expect((await stripe.invoices.retrieve(String(incomplete.latest_invoice))).status).toBe("void");
  });
});
