import type Stripe from "stripe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type StripeEmulator, startStripeEmulator } from "../../src/index";
import { compileRoutes, matchRoute } from "../../src/router";
import { routes } from "../../src/routes";
import { advanceTestClock, customerWithSavedCard, days, newSecretKey, sdkFor } from "../../src/test-support";
import { conformanceProblems } from "./validate-objects";

let emulator: StripeEmulator;
beforeAll(async () => {
  emulator = await startStripeEmulator();
});
afterAll(() => emulator.close());

/**
 * Drives every endpoint the emulator serves through the official SDK, and checks every response
 * and every event against the schemas derived from the SDK's types (missing, extra or mistyped
 * fields, values outside Stripe's enums).
 */
it("every endpoint answers, and every event carries, objects that match Stripe's schemas", async () => {
  const key = newSecretKey();
  const stripe = sdkFor(emulator, key);
  const compiled = compileRoutes(routes);
  const hit = new Set<string>();
  stripe.on("response", (event: { method: string; path: string }) => {
    const matched = matchRoute(compiled, event.method, new URL(event.path, "http://x").pathname);
    if (matched && matched !== "method_not_allowed") hit.add(`${matched.route.method} ${matched.route.path}`);
  });
  const problems: string[] = [];
  const check = <T>(value: T, where: string): T => {
    problems.push(...conformanceProblems(value, where));
    return value;
  };

  check(await stripe.accounts.retrieveCurrent(), "account");
  check(await stripe.balance.retrieve(), "balance");
  const endpoint = check(
    await stripe.webhookEndpoints.create({ url: "http://127.0.0.1:9/hook", enabled_events: ["*"] }),
    "endpoint",
  );
  check(await stripe.webhookEndpoints.retrieve(endpoint.id), "endpoint retrieve");
  check(await stripe.webhookEndpoints.update(endpoint.id, { disabled: true }), "endpoint update");
  check(await stripe.webhookEndpoints.list(), "endpoint list");

  const { clock, customer, first, paymentMethod } = await customerWithSavedCard(stripe);
  check(first, "payment intent");
  check(await stripe.testHelpers.testClocks.retrieve(clock.id), "clock");
  check(await stripe.testHelpers.testClocks.list(), "clocks");
  check(await stripe.customers.retrieve(customer.id), "customer");
  check(
    await stripe.customers.update(customer.id, { name: "Payer", address: { country: "US" } }),
    "customer update",
  );
  check(await stripe.customers.list({ email: "payer@example.com" }), "customers");
  check(await stripe.customers.listPaymentMethods(customer.id), "customer payment methods");
  check(await stripe.paymentMethods.retrieve(paymentMethod), "payment method");
  check(await stripe.paymentMethods.update(paymentMethod, { metadata: { a: "b" } }), "payment method update");
  check(await stripe.paymentMethods.list({ customer: customer.id, type: "card" }), "payment methods");
  const spare = check(
    await stripe.paymentMethods.create({ type: "card", card: { token: "tok_visa" } }),
    "pm create",
  );
  check(await stripe.paymentMethods.attach(spare.id, { customer: customer.id }), "attach");
  check(await stripe.paymentMethods.detach(spare.id), "detach");

  const manual = check(
    await stripe.paymentIntents.create({
      amount: 1500,
      currency: "usd",
      customer: customer.id,
      allowed_payment_method_types: ["card"],
      capture_method: "manual",
    }),
    "intent create",
  );
  check(await stripe.paymentIntents.update(manual.id, { description: "manual" }), "intent update");
  check(await stripe.paymentIntents.confirm(manual.id, { payment_method: paymentMethod }), "intent confirm");
  check(await stripe.paymentIntents.capture(manual.id, { amount_to_capture: 1000 }), "intent capture");
  const toCancel = await stripe.paymentIntents.create({
    amount: 900,
    currency: "usd",
    allowed_payment_method_types: ["card"],
  });
  check(await stripe.paymentIntents.cancel(toCancel.id), "intent cancel");
  check(await stripe.paymentIntents.retrieve(first.id), "intent retrieve");
  check(await stripe.paymentIntents.list({ customer: customer.id }), "intents");

  const chargeId = String(first.latest_charge);
  const charge = check(await stripe.charges.retrieve(chargeId), "charge");
  check(await stripe.charges.update(chargeId, { description: "first" }), "charge update");
  check(await stripe.charges.list({ customer: customer.id }), "charges");
  check(await stripe.balanceTransactions.retrieve(String(charge.balance_transaction)), "balance transaction");
  const refund = check(await stripe.refunds.create({ payment_intent: first.id, amount: 500 }), "refund");
  check(await stripe.refunds.retrieve(refund.id), "refund retrieve");
  check(await stripe.refunds.update(refund.id, { metadata: { why: "test" } }), "refund update");
  check(await stripe.refunds.list({ charge: chargeId }), "refunds");

  const product = check(await stripe.products.create({ name: "Pro" }), "product");
  check(await stripe.products.retrieve(product.id), "product retrieve");
  check(await stripe.products.update(product.id, { description: "Pro plan" }), "product update");
  check(await stripe.products.list(), "products");
  const price = check(
    await stripe.prices.create({
      product: product.id,
      currency: "usd",
      unit_amount: 1000,
      recurring: { interval: "month" },
    }),
    "price",
  );
  check(await stripe.prices.retrieve(price.id), "price retrieve");
  check(await stripe.prices.list({ product: product.id }), "prices");

  const subscription = check(
    await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      default_payment_method: paymentMethod,
      expand: ["latest_invoice.payments.data.payment.payment_intent", "latest_invoice.confirmation_secret"],
    }),
    "subscription",
  );
  check(await stripe.subscriptions.retrieve(subscription.id), "subscription retrieve");
  check(
    await stripe.subscriptions.update(subscription.id, { metadata: { plan: "pro" } }),
    "subscription update",
  );
  check(await stripe.subscriptions.list({ customer: customer.id }), "subscriptions");
  const invoiceId = String(
    typeof subscription.latest_invoice === "string"
      ? subscription.latest_invoice
      : subscription.latest_invoice?.id,
  );
  check(await stripe.invoices.retrieve(invoiceId, { expand: ["payments"] }), "invoice");
  check(await stripe.invoices.update(invoiceId, { metadata: { a: "b" } }), "invoice update");
  check(await stripe.invoices.list({ customer: customer.id }), "invoices");
  check(await stripe.invoices.listLineItems(invoiceId), "invoice lines");
  const payments = check(await stripe.invoicePayments.list({ invoice: invoiceId }), "invoice payments");
  check(await stripe.invoicePayments.retrieve(payments.data[0]?.id ?? ""), "invoice payment");

  // A renewal: draft for an hour, then finalized through the API and paid; a failing one marked uncollectible.
  const periodEnd = subscription.items.data[0]?.current_period_end ?? 0;
  await advanceTestClock(stripe, clock.id, periodEnd + 60);
  const draft = (await stripe.invoices.list({ subscription: subscription.id, status: "draft" })).data[0];
  expect(draft?.status).toBe("draft");
  check(await stripe.invoices.finalizeInvoice(draft?.id ?? "", { auto_advance: false }), "finalize");
  check(await stripe.invoices.pay(draft?.id ?? ""), "pay");
  await emulator.setCardBehavior(key, paymentMethod, "4000000000000341");
  await advanceTestClock(stripe, clock.id, periodEnd + days(31) + 7200);
  const failed = (await stripe.invoices.list({ subscription: subscription.id, status: "open" })).data[0];
  check(await stripe.invoices.markUncollectible(failed?.id ?? ""), "uncollectible");
  const other = await stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price: price.id }],
    payment_behavior: "default_incomplete",
  });
  check(await stripe.invoices.voidInvoice(String(other.latest_invoice)), "void");
  check(await stripe.subscriptions.cancel(other.id), "subscription cancel");

  // Disputes: a dispute test card, evidence with an uploaded file, an accepted one, an early fraud warning.
  const disputed = async (card: string) =>
    stripe.paymentIntents.create({
      amount: 2500,
      currency: "usd",
      customer: customer.id,
      payment_method: card,
      allowed_payment_method_types: ["card"],
      confirm: true,
    });
  const fought = await disputed("pm_card_createDispute");
  const dispute = check(
    (await stripe.disputes.list({ payment_intent: fought.id })).data[0] as Stripe.Dispute,
    "dispute",
  );
  check(await stripe.disputes.list({ charge: String(fought.latest_charge) }), "disputes");
  check(await stripe.disputes.retrieve(dispute.id), "dispute retrieve");
  const file = check(
    await stripe.files.create({
      purpose: "dispute_evidence",
      file: { data: Buffer.from("%PDF-1.4 receipt"), name: "receipt.pdf", type: "application/pdf" },
    }),
    "file",
  );
  check(await stripe.files.retrieve(file.id), "file retrieve");
  check(await stripe.files.list({ purpose: "dispute_evidence" }), "files");
  check(
    await stripe.disputes.update(dispute.id, {
      evidence: { uncategorized_text: "winning_evidence", receipt: file.id },
      submit: true,
    }),
    "dispute update",
  );
  const accepted = await disputed("pm_card_createDisputeProductNotReceived");
  const toClose = (await stripe.disputes.list({ payment_intent: accepted.id })).data[0];
  check(await stripe.disputes.close(toClose?.id ?? ""), "dispute close");
  const warned = await stripe.paymentIntents.create({
    amount: 2500,
    currency: "usd",
    customer: customer.id,
    payment_method: (
      await stripe.paymentMethods.create({
        type: "card",
        card: { number: "4000000000005423", exp_month: 12, exp_year: 2040, cvc: "123" },
      })
    ).id,
    allowed_payment_method_types: ["card"],
    confirm: true,
  });
  const warnings = check(
    await stripe.radar.earlyFraudWarnings.list({ payment_intent: warned.id }),
    "early fraud warnings",
  );
  check(await stripe.radar.earlyFraudWarnings.retrieve(warnings.data[0]?.id ?? ""), "early fraud warning");
  await advanceTestClock(stripe, clock.id, (dispute.evidence_details.due_by ?? 0) + days(1));
  expect((await stripe.disputes.retrieve(dispute.id)).status).toBe("won");

  const events = check(await stripe.events.list({ limit: 3 }), "events");
  check(await stripe.events.retrieve(events.data[0]?.id ?? ""), "event");
  check(await stripe.webhookEndpoints.del(endpoint.id), "endpoint delete");
  const gone = await stripe.customers.create({ email: "gone@example.com" });
  check(await stripe.customers.del(gone.id), "customer delete");
  const spareClock = await stripe.testHelpers.testClocks.create({ frozen_time: clock.frozen_time });
  check(await stripe.testHelpers.testClocks.del(spareClock.id), "clock delete");

  // Every event of the account (snapshots of every object at every change), as webhooks carry them.
  for (const event of emulator.events(key)) check(event, `event ${event.id}`);

  expect(problems).toEqual([]);
  expect(emulator.events(key).length).toBeGreaterThan(50);
  expect(routes.map((route) => `${route.method} ${route.path}`).filter((route) => !hit.has(route))).toEqual(
    [],
  );
}, 60_000);
