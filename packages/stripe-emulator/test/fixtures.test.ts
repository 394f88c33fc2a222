import { readFileSync } from "node:fs";
import path from "node:path";
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StripeEmulator, startStripeEmulator } from "../src/index";
import { advanceTestClock, customerWithSavedCard, days, newSecretKey, sdkFor } from "../src/test-support";

/**
 * The emulator's objects against Stripe's published fixtures (stripe/openapi fixtures3.json, kept in test/fixtures/stripe with Stripe's MIT licence):
 * same keys, same nesting, same JSON types. The stored objects are also typed with the SDK's own
 * types, so tsc checks them against the API version the SDK pins. Differences are listed below,
 * each with its reason; anything else fails.
 */
const fixtures = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "fixtures/stripe/fixtures3.json"), "utf8"),
).resources as Record<string, Record<string, unknown>>;

/** Known differences: fields the SDK (API 2026-10-28) has that the fixture file predates, or the reverse. */
const expectedDifferences: Record<string, string[]> = {
  // In the SDK's PaymentIntent type; the fixture shows payment_method_options as {}.
  payment_intent: [
    "extra payment_intent.allowed_payment_method_types",
    "extra payment_intent.payment_record",
    "extra payment_intent.payment_method_options.card",
  ],
  // `refunds` is only present when expanded (Charge.refunds is optional in the SDK); Radar's
  // risk_level/risk_score and electronic_commerce_indicator are in the SDK's Charge type.
  charge: [
    "missing charge.refunds",
    "extra charge.outcome.risk_level",
    "extra charge.outcome.risk_score",
    "extra charge.payment_method_details.card.electronic_commerce_indicator",
  ],
  refund: [
    "extra refund.destination_details.card.reference",
    "extra refund.destination_details.card.reference_status",
    "extra refund.destination_details.card.reference_type",
  ],
  subscription: [
    "extra subscription.cancellation_details.feedback_option",
    "extra subscription.trial_settings.end_behavior.billing_cycle_anchor",
  ],
  subscription_item: ["extra subscription_item.current_trial"],
  // Invoice.subscription is gone from the SDK's Invoice (parent.subscription_details instead).
  invoice: ["missing invoice.subscription"],
  line_item: ["extra line_item.pricing.price_details"],
  product: ["extra product.tax_details"],
  invoice_payment: ["extra invoice_payment.payment.payment_intent"],
};

type Plain = Record<string, unknown>;
const isPlain = (value: unknown): value is Plain =>
  typeof value === "object" && value !== null && !Array.isArray(value);
/** The SDK turns decimal strings into Decimal objects when reading; on the wire they are strings. */
const isDecimal = (value: unknown) =>
  isPlain(value) && typeof value.toFixed === "function" && typeof value.isZero === "function";
const jsonType = (value: unknown) =>
  Array.isArray(value) ? "array" : isDecimal(value) ? "string" : typeof value;

/** Not compared inside: free-form hashes, and an event's object (the fixture's is a plan; see below). */
const opaque = new Set(["event.data.object"]);

function compare(where: string, mine: Plain, fixture: Plain, out: string[]): void {
  const own = Object.keys(mine).filter((key) => key !== "lastResponse");
  for (const key of own) if (!(key in fixture)) out.push(`extra ${where}.${key}`);
  for (const key of Object.keys(fixture)) if (!own.includes(key)) out.push(`missing ${where}.${key}`);
  for (const key of own) {
    const a = mine[key];
    const b = fixture[key];
    if (!(key in fixture) || a === null || b === null) continue;
    if (key === "metadata") continue;
    if (jsonType(a) !== jsonType(b)) out.push(`type ${where}.${key}: ${jsonType(a)} vs ${jsonType(b)}`);
    else if (isPlain(a) && isPlain(b) && !isDecimal(a) && !opaque.has(`${where}.${key}`))
      compare(`${where}.${key}`, a, b, out);
  }
}

function differences(resource: string, object: unknown): string[] {
  const fixture = fixtures[resource];
  if (!fixture) throw new Error(`no fixture for ${resource}`);
  const out: string[] = [];
  compare(resource, object as Plain, fixture, out);
  return out;
}

let emulator: StripeEmulator;
const objects: Record<string, unknown> = {};
const eventObjects: Record<string, unknown> = {};

beforeAll(async () => {
  emulator = await startStripeEmulator();
  const key = newSecretKey();
  const stripe = sdkFor(emulator, key);
  const endpoint = await stripe.webhookEndpoints.create({
    url: "http://127.0.0.1:9/none",
    enabled_events: ["*"],
  });
  const { clock, customer, first, paymentMethod } = await customerWithSavedCard(stripe);
  const product = await stripe.products.create({ name: "Plan" });
  const subscription = await stripe.subscriptions.create({
    customer: customer.id,
    default_payment_method: paymentMethod,
    items: [
      {
        price_data: {
          currency: "usd",
          product: product.id,
          unit_amount: 1000,
          recurring: { interval: "month" },
        },
      },
    ],
  });
  await advanceTestClock(stripe, clock.id, clock.frozen_time + days(40));
  const renewed = await stripe.subscriptions.retrieve(subscription.id);
  const invoice = await stripe.invoices.retrieve(String(renewed.latest_invoice));
  const charge = await stripe.charges.retrieve(String(first.latest_charge));
  Object.assign(objects, {
    customer: await stripe.customers.retrieve(customer.id),
    payment_method: await stripe.paymentMethods.retrieve(paymentMethod),
    payment_intent: await stripe.paymentIntents.retrieve(first.id),
    charge,
    refund: await stripe.refunds.create({ payment_intent: first.id, amount: 100 }),
    balance_transaction: await stripe.balanceTransactions.retrieve(String(charge.balance_transaction)),
    product: await stripe.products.retrieve(product.id),
    price: await stripe.prices.retrieve((renewed.items.data[0]?.price as Stripe.Price).id),
    subscription: renewed,
    subscription_item: renewed.items.data[0],
    invoice,
    line_item: invoice.lines.data[0],
    invoice_payment: (await stripe.invoicePayments.list({ invoice: invoice.id })).data[0],
    webhook_endpoint: await stripe.webhookEndpoints.retrieve(endpoint.id),
    "test_helpers.test_clock": await stripe.testHelpers.testClocks.retrieve(clock.id),
    event: await stripe.events.retrieve(emulator.events(key, "invoice.paid")[0]?.id ?? ""),
  });
  for (const type of [
    "invoice.paid",
    "customer.subscription.updated",
    "payment_intent.succeeded",
    "charge.succeeded",
  ]) {
    eventObjects[type] = emulator.events(key, type)[0]?.data.object;
  }
});
afterAll(() => emulator.close());

describe("objects have the shape of Stripe's published fixtures", () => {
  it.each([
    "customer",
    "payment_method",
    "payment_intent",
    "charge",
    "refund",
    "balance_transaction",
    "product",
    "price",
    "subscription",
    "subscription_item",
    "invoice",
    "line_item",
    "invoice_payment",
    "webhook_endpoint",
    "test_helpers.test_clock",
    "event",
  ])("%s", (resource) => {
    expect(objects[resource]).toBeDefined();
    expect(differences(resource, objects[resource])).toEqual(expectedDifferences[resource] ?? []);
  });

  it.each([
    ["invoice.paid", "invoice"],
    ["customer.subscription.updated", "subscription"],
    ["payment_intent.succeeded", "payment_intent"],
    ["charge.succeeded", "charge"],
  ])("the data.object of %s is a full %s", (type, resource) => {
    expect(differences(resource, eventObjects[type])).toEqual(expectedDifferences[resource] ?? []);
  });

  it("key fields that Kassa reads are there", () => {
    const intent = objects.payment_intent as Stripe.PaymentIntent;
    expect(Object.keys(intent)).toEqual(
      expect.arrayContaining([
        "id",
        "status",
        "amount",
        "currency",
        "customer",
        "payment_method",
        "latest_charge",
        "metadata",
        "last_payment_error",
        "next_action",
        "setup_future_usage",
      ]),
    );
    const charge = objects.charge as Stripe.Charge;
    expect(Object.keys(charge.payment_method_details?.card ?? {})).toEqual(
      expect.arrayContaining(["brand", "last4", "exp_month", "exp_year", "country"]),
    );
    expect(Object.keys(charge.outcome ?? {})).toEqual(
      expect.arrayContaining(["type", "risk_level", "reason"]),
    );
    const subscription = objects.subscription as Stripe.Subscription;
    expect(Object.keys(subscription)).toEqual(
      expect.arrayContaining([
        "status",
        "cancel_at_period_end",
        "cancel_at",
        "canceled_at",
        "cancellation_details",
        "latest_invoice",
        "test_clock",
        "metadata",
      ]),
    );
    const event = objects.event as Stripe.Event;
    expect(Object.keys(event)).toEqual(
      expect.arrayContaining(["id", "type", "created", "data", "api_version", "request", "livemode"]),
    );
  });
});
