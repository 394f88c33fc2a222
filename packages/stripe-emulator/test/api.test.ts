import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StripeEmulator, startStripeEmulator } from "../src/index";
import { newSecretKey, sdkFor, startReceiver } from "../src/test-support";

let emulator: StripeEmulator;

beforeAll(async () => {
  emulator = await startStripeEmulator({ webhookRetryDelaysMs: [60_000] });
});
afterAll(() => emulator.close());

const fresh = () => {
  const key = newSecretKey();
  return { key, stripe: sdkFor(emulator, key) };
};

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected an error");
    },
    (error: unknown) => error as Stripe.errors.StripeError,
  );

const paid = (stripe: Stripe, amount = 5000) =>
  stripe.paymentIntents.create({
    amount,
    currency: "usd",
    payment_method: "pm_card_visa",
    automatic_payment_methods: { enabled: true, allow_redirects: "never" },
    confirm: true,
  });

describe("authentication and accounts", () => {
  it("answers 401 without a key or with a malformed one, in Stripe's error shape", async () => {
    const missing = await fetch(`${emulator.url}/v1/customers`);
    expect(missing.status).toBe(401);
    const body = (await missing.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.message).toMatch(/did not provide an API key/);
    const error = await failure(sdkFor(emulator, "sk_live_nope").customers.list());
    expect(error.type).toBe("StripeAuthenticationError");
    expect(error.statusCode).toBe(401);
  });

  it("gives each secret key its own isolated account", async () => {
    const a = fresh();
    const b = fresh();
    const customer = await a.stripe.customers.create({ email: "a@example.com" });
    const error = await failure(b.stripe.customers.retrieve(customer.id));
    expect(error).toMatchObject({
      type: "StripeInvalidRequestError",
      statusCode: 404,
      code: "resource_missing",
      param: "id",
    });
    expect(error.message).toBe(`No such customer: '${customer.id}'`);
    expect((await b.stripe.customers.list()).data).toHaveLength(0);
    expect(emulator.accountId(a.key)).not.toBe(emulator.accountId(b.key));
    expect((await a.stripe.accounts.retrieveCurrent()).id).toBe(emulator.accountId(a.key));
  });

  it("restricted keys get 403 on the resources they lack", async () => {
    const { key, stripe } = fresh();
    const restricted = new Stripe(emulator.createRestrictedKey(key, { deny: ["webhook_endpoints"] }), {
      ...emulator.stripeConfig,
      maxNetworkRetries: 0,
    });
    const error = await failure(restricted.webhookEndpoints.list());
    expect(error).toMatchObject({ type: "StripePermissionError", statusCode: 403 });
    const customer = await restricted.customers.create({});
    expect((await stripe.customers.retrieve(customer.id)).id).toBe(customer.id);
  });
});

describe("customers", () => {
  it("deletes a customer: retrieve shows the deleted stub and its subscriptions end", async () => {
    const { stripe } = fresh();
    const customer = await stripe.customers.create({ payment_method: "pm_card_visa" });
    const method = (await stripe.paymentMethods.list({ customer: customer.id })).data[0]?.id ?? "";
    const product = await stripe.products.create({ name: "Plan" });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      default_payment_method: method,
      items: [
        {
          price_data: {
            currency: "usd",
            product: product.id,
            unit_amount: 900,
            recurring: { interval: "week" },
          },
        },
      ],
    });
    expect(subscription.status).toBe("active");
    expect(await stripe.customers.del(customer.id)).toMatchObject({ id: customer.id, deleted: true });
    expect(await stripe.customers.retrieve(customer.id)).toMatchObject({ id: customer.id, deleted: true });
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe("canceled");
    const error = await failure(stripe.customers.update(customer.id, { name: "x" }));
    expect(error).toMatchObject({ statusCode: 404, code: "resource_missing" });
  });
});

describe("request parameters and errors", () => {
  it("reports missing and invalid parameters with param and code", async () => {
    const { stripe } = fresh();
    const missing = await failure(
      stripe.paymentIntents.create({ currency: "usd" } as Stripe.PaymentIntentCreateParams),
    );
    expect(missing).toMatchObject({ statusCode: 400, code: "parameter_missing", param: "amount" });
    const small = await failure(stripe.paymentIntents.create({ amount: 10, currency: "usd" }));
    expect(small).toMatchObject({ statusCode: 400, code: "amount_too_small", param: "amount" });
    const noSuchPrice = await failure(
      stripe.subscriptions.create({
        customer: (await stripe.customers.create({})).id,
        items: [{ price: "price_nope" }],
      }),
    );
    expect(noSuchPrice).toMatchObject({
      statusCode: 404,
      code: "resource_missing",
      param: "items[0][price]",
    });
    const route = await fetch(`${emulator.url}/v1/nothing_here`, {
      headers: { authorization: "Bearer sk_test_x" },
    });
    expect(route.status).toBe(404);
  });

  it("refuses payment_method_types on this API version (allowed_payment_method_types replaces it)", async () => {
    const { stripe } = fresh();
    const legacy = {
      amount: 1000,
      currency: "usd",
      payment_method_types: ["card"],
    } as unknown as Stripe.PaymentIntentCreateParams;
    const error = await failure(stripe.paymentIntents.create(legacy));
    expect(error).toMatchObject({ statusCode: 400, code: "payment_method_types_no_longer_supported" });
    const intent = await stripe.paymentIntents.create({
      amount: 1000,
      currency: "usd",
      allowed_payment_method_types: ["card"],
    });
    expect(intent).toMatchObject({
      allowed_payment_method_types: ["card"],
      payment_method_types: ["card"],
      automatic_payment_methods: null,
    });
    const dynamic = await stripe.paymentIntents.create({ amount: 1000, currency: "usd" });
    expect(dynamic.automatic_payment_methods).toEqual({ enabled: true, allow_redirects: "always" });
  });

  it("needs return_url to confirm with redirect-capable automatic payment methods, as Stripe does", async () => {
    const { stripe } = fresh();
    const error = await failure(
      stripe.paymentIntents.create({
        amount: 1000,
        currency: "usd",
        payment_method: "pm_card_visa",
        confirm: true,
      }),
    );
    expect(error).toMatchObject({ statusCode: 400, param: "return_url" });
    const ok = await stripe.paymentIntents.create({
      amount: 1000,
      currency: "usd",
      payment_method: "pm_card_visa",
      confirm: true,
      return_url: "https://shop.example/done",
    });
    expect(ok.status).toBe("succeeded");
  });

  it("decodes nested form parameters: metadata, arrays, expand", async () => {
    const { stripe } = fresh();
    const customer = await stripe.customers.create({
      email: "nested@example.com",
      metadata: { order: "A-1", "with space": "x y" },
      preferred_locales: ["fr", "en"],
      address: { line1: "1 Rue", city: "Paris", country: "FR" },
    });
    expect(customer.metadata).toEqual({ order: "A-1", "with space": "x y" });
    expect(customer.preferred_locales).toEqual(["fr", "en"]);
    expect(customer.address).toMatchObject({
      line1: "1 Rue",
      city: "Paris",
      country: "FR",
      postal_code: null,
    });
    const updated = await stripe.customers.update(customer.id, { metadata: { order: "", extra: "1" } });
    expect(updated.metadata).toEqual({ "with space": "x y", extra: "1" });

    const intent = await stripe.paymentIntents.create({
      amount: 1200,
      currency: "usd",
      customer: customer.id,
      payment_method: "pm_card_visa",
      allowed_payment_method_types: ["card"],
      confirm: true,
      expand: ["latest_charge.balance_transaction", "customer", "payment_method"],
    });
    const charge = intent.latest_charge as Stripe.Charge;
    expect((charge.balance_transaction as Stripe.BalanceTransaction).fee).toBe(Math.round(1200 * 0.029) + 30);
    expect((intent.customer as Stripe.Customer).email).toBe("nested@example.com");
    expect((intent.payment_method as Stripe.PaymentMethod).card?.last4).toBe("4242");
    const bad = await failure(stripe.customers.retrieve(customer.id, { expand: ["email"] }));
    expect(bad).toMatchObject({ statusCode: 400, param: "expand" });
  });
});

describe("idempotency", () => {
  it("replays the first response for the same key and parameters", async () => {
    const { stripe } = fresh();
    const first = await stripe.customers.create(
      { email: "once@example.com" },
      { idempotencyKey: "signup-1" },
    );
    const again = await stripe.customers.create(
      { email: "once@example.com" },
      { idempotencyKey: "signup-1" },
    );
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect((await stripe.customers.list()).data).toHaveLength(1);
  });

  it("replays card errors too, and refuses the key with other parameters", async () => {
    const { stripe } = fresh();
    const params: Stripe.PaymentIntentCreateParams = {
      amount: 1000,
      currency: "usd",
      payment_method: "pm_card_chargeDeclined",
      allowed_payment_method_types: ["card"],
      confirm: true,
    };
    const first = await failure(stripe.paymentIntents.create(params, { idempotencyKey: "pay-1" }));
    const second = await failure(stripe.paymentIntents.create(params, { idempotencyKey: "pay-1" }));
    expect(second.payment_intent?.id).toBe(first.payment_intent?.id);
    expect((await stripe.paymentIntents.list()).data).toHaveLength(1);
    const other = await failure(
      stripe.paymentIntents.create({ ...params, amount: 2000 }, { idempotencyKey: "pay-1" }),
    );
    expect(other).toMatchObject({ type: "StripeIdempotencyError", statusCode: 400 });
  });
});

describe("lists", () => {
  it("pages newest first with limit, starting_after and has_more", async () => {
    const { stripe } = fresh();
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push((await stripe.customers.create({ name: `c${i}` })).id);
    const page1 = await stripe.customers.list({ limit: 3 });
    expect(page1.data.map((c) => c.id)).toEqual(created.slice(-3).reverse());
    expect(page1.has_more).toBe(true);
    expect(page1.url).toBe("/v1/customers");
    const page2 = await stripe.customers.list({ limit: 3, starting_after: page1.data.at(-1)?.id });
    expect(page2.data.map((c) => c.id)).toEqual(created.slice(1, 4).reverse());
    const back = await stripe.customers.list({ limit: 2, ending_before: page2.data[0]?.id });
    expect(back.data.map((c) => c.id)).toEqual(created.slice(4, 6).reverse());
    const all = await stripe.customers.list({ limit: 2 }).autoPagingToArray({ limit: 100 });
    expect(all.map((c) => c.id)).toEqual([...created].reverse());
    const tooMany = await failure(stripe.customers.list({ limit: 101 }));
    expect(tooMany.statusCode).toBe(400);
  });
});

describe("refunds", () => {
  it("refunds partially then fully, with charge.refunded events, and refuses more", async () => {
    const { key, stripe } = fresh();
    const intent = await paid(stripe, 5000);
    const partial = await stripe.refunds.create({
      payment_intent: intent.id,
      amount: 2000,
      reason: "requested_by_customer",
    });
    expect(partial).toMatchObject({ status: "succeeded", amount: 2000, payment_intent: intent.id });
    let charge = await stripe.charges.retrieve(String(intent.latest_charge));
    expect(charge).toMatchObject({ amount_refunded: 2000, refunded: false });
    const rest = await stripe.refunds.create({ payment_intent: intent.id });
    expect(rest.amount).toBe(3000);
    charge = await stripe.charges.retrieve(String(intent.latest_charge), { expand: ["refunds"] });
    expect(charge).toMatchObject({ amount_refunded: 5000, refunded: true });
    expect(charge.refunds?.data.map((r) => r.id)).toEqual([rest.id, partial.id]);
    const refunded = emulator.events(key, "charge.refunded");
    expect(refunded).toHaveLength(2);
    expect(refunded[0]?.data.previous_attributes).toEqual({ amount_refunded: 0 });
    const again = await failure(stripe.refunds.create({ payment_intent: intent.id }));
    expect(again).toMatchObject({ statusCode: 400, code: "charge_already_refunded" });
    const tooMuch = await failure(
      stripe.refunds.create({ payment_intent: (await paid(stripe, 1000)).id, amount: 1001 }),
    );
    expect(tooMuch).toMatchObject({ statusCode: 400, param: "amount" });
  });

  it("4000000000005126: the refund begins succeeded and turns failed 30 s later on its clock", async () => {
    const { key, stripe } = fresh();
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: 1_800_000_000 });
    const customer = await stripe.customers.create({ test_clock: clock.id });
    const intent = await stripe.paymentIntents.create({
      amount: 5000,
      currency: "usd",
      customer: customer.id,
      payment_method: "pm_card_refundFail",
      automatic_payment_methods: { enabled: true, allow_redirects: "never" },
      confirm: true,
    });
    expect(intent.status).toBe("succeeded");
    const refund = await stripe.refunds.create({ payment_intent: intent.id, amount: 2000 });
    expect(refund).toMatchObject({ status: "succeeded", amount: 2000 });
    const chargeId = String(intent.latest_charge);
    expect(await stripe.charges.retrieve(chargeId)).toMatchObject({ amount_refunded: 2000 });

    const advance = async (to: number) => {
      await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: to });
      await emulator.idle();
      expect((await stripe.testHelpers.testClocks.retrieve(clock.id)).status).toBe("ready");
    };
    // Not yet: 29 seconds later it still reads succeeded.
    await advance(refund.created + 29);
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe("succeeded");
    expect(emulator.events(key, "refund.failed")).toHaveLength(0);

    await advance(refund.created + 31);
    const failed = await stripe.refunds.retrieve(refund.id);
    expect(failed).toMatchObject({
      status: "failed",
      failure_reason: "expired_or_canceled_card",
      failure_balance_transaction: expect.stringMatching(/^txn_/),
    });
    const reversal = await stripe.balanceTransactions.retrieve(String(failed.failure_balance_transaction));
    expect(reversal).toMatchObject({ amount: 2000, type: "refund_failure", source: refund.id });
    // The money is back on the charge: it can be refunded again.
    expect(await stripe.charges.retrieve(chargeId)).toMatchObject({ amount_refunded: 0, refunded: false });

    const updated = emulator.events(key, "charge.refund.updated");
    expect(updated).toHaveLength(1);
    expect(updated[0]?.data.object).toMatchObject({ id: refund.id, status: "failed" });
    expect(updated[0]?.data.previous_attributes).toMatchObject({ status: "succeeded", failure_reason: null });
    expect(
      emulator
        .events(key, "refund.updated")
        .map((e) => (e.data.object as { id: string; status: string }).status),
    ).toEqual(["failed"]);
    expect(
      emulator.events(key, "refund.failed").map((e) => (e.data.object as { id: string; status: string }).id),
    ).toEqual([refund.id]);
    // Once only: a later advance changes nothing.
    await advance(refund.created + 3600);
    expect(emulator.events(key, "refund.failed")).toHaveLength(1);
    // A card without that behaviour keeps its refund.
    const visa = await paid(stripe, 1000);
    const kept = await stripe.refunds.create({ payment_intent: visa.id });
    expect((await stripe.refunds.retrieve(kept.id)).status).toBe("succeeded");
  });
  it("4000000000005126 without a test clock: the refund fails on its own 30 s later, no request needed", async () => {
    const { key, stripe } = fresh();
    const intent = await stripe.paymentIntents.create({
      amount: 1500,
      currency: "usd",
      payment_method: "pm_card_refundFail",
      automatic_payment_methods: { enabled: true, allow_redirects: "never" },
      confirm: true,
    });
    const refund = await stripe.refunds.create({ payment_intent: intent.id });
    expect(refund.status).toBe("succeeded");
    // No request to the emulator meanwhile: the refund.failed event comes by itself.
    const deadline = Date.now() + 40_000;
    while (!emulator.events(key, "refund.failed").length && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
    const [failed] = emulator.events(key, "refund.failed");
    expect(failed?.data.object).toMatchObject({ id: refund.id, status: "failed" });
    expect(failed!.created - refund.created).toBeGreaterThanOrEqual(30);
  }, 60_000);

  it("4000000000007726: the refund begins pending and turns succeeded 30 s later on its clock", async () => {
    const { key, stripe } = fresh();
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: 1_800_000_000 });
    const customer = await stripe.customers.create({ test_clock: clock.id });
    const method = await stripe.paymentMethods.create({
      type: "card",
      card: { number: "4000000000007726", exp_month: 12, exp_year: 2040, cvc: "123" },
    });
    const intent = await stripe.paymentIntents.create({
      amount: 3000,
      currency: "usd",
      customer: customer.id,
      payment_method: method.id,
      automatic_payment_methods: { enabled: true, allow_redirects: "never" },
      confirm: true,
    });
    const refund = await stripe.refunds.create({ payment_intent: intent.id });
    expect(refund).toMatchObject({ status: "pending", amount: 3000 });
    expect(await stripe.charges.retrieve(String(intent.latest_charge))).toMatchObject({
      amount_refunded: 3000,
    });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: refund.created + 31 });
    await emulator.idle();
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe("succeeded");
    const updated = emulator.events(key, "charge.refund.updated");
    expect(updated.map((e) => (e.data.object as { status: string }).status)).toEqual(["succeeded"]);
    expect(updated[0]?.data.previous_attributes).toEqual({ status: "pending" });
    expect(emulator.events(key, "refund.updated")).toHaveLength(1);
    expect(emulator.events(key, "refund.failed")).toHaveLength(0);
  });
});

describe("webhook endpoints and events", () => {
  it("creates, lists, retrieves and deletes endpoints; the secret is shown once", async () => {
    const { stripe } = fresh();
    const endpoint = await stripe.webhookEndpoints.create({
      url: "http://127.0.0.1:9/hook",
      enabled_events: ["invoice.paid", "customer.subscription.deleted"],
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(endpoint.status).toBe("enabled");
    const retrieved = await stripe.webhookEndpoints.retrieve(endpoint.id);
    expect(retrieved.secret).toBeUndefined();
    expect(retrieved.enabled_events).toEqual(["invoice.paid", "customer.subscription.deleted"]);
    expect((await stripe.webhookEndpoints.list()).data.map((e) => e.id)).toEqual([endpoint.id]);
    expect(await stripe.webhookEndpoints.del(endpoint.id)).toMatchObject({ id: endpoint.id, deleted: true });
    expect((await stripe.webhookEndpoints.list()).data).toHaveLength(0);
  });

  it("signs deliveries so that constructEvent accepts them, and retries failed ones", async () => {
    const { key, stripe } = fresh();
    const receiver = await startReceiver();
    try {
      const endpoint = await stripe.webhookEndpoints.create({
        url: receiver.url,
        enabled_events: ["payment_intent.succeeded"],
      });
      receiver.respondWith(503);
      const intent = await paid(stripe);
      await emulator.idle();
      expect(emulator.deliveries(key)).toMatchObject([{ ok: false, status: 503, attempt: 1 }]);
      receiver.respondWith(200);
      await emulator.retryWebhooks();
      expect(emulator.deliveries(key).map((d) => d.ok)).toEqual([false, true]);
      const delivered = receiver.received.at(-1);
      const event = stripe.webhooks.constructEvent(
        delivered?.body ?? "",
        String(delivered?.headers["stripe-signature"]),
        endpoint.secret ?? "",
      );
      expect(event.type).toBe("payment_intent.succeeded");
      expect((event.data.object as Stripe.PaymentIntent).id).toBe(intent.id);
      expect(() =>
        stripe.webhooks.constructEvent(
          delivered?.body ?? "",
          String(delivered?.headers["stripe-signature"]),
          "whsec_wrong",
        ),
      ).toThrow();
      const stored = await stripe.events.retrieve(event.id);
      expect(stored.pending_webhooks).toBe(0);
      const listed = await stripe.events.list({ type: "payment_intent.*" });
      expect(listed.data.map((e) => e.type)).toEqual(["payment_intent.succeeded", "payment_intent.created"]);
    } finally {
      await receiver.close();
    }
  });

  it("does not call non-loopback URLs", async () => {
    const { key, stripe } = fresh();
    await stripe.webhookEndpoints.create({ url: "https://example.com/hook", enabled_events: ["*"] });
    await stripe.customers.create({});
    await emulator.idle();
    expect(emulator.deliveries(key)[0]).toMatchObject({ ok: false, status: null });
  });
});

describe("injected failures", () => {
  it("fails the next request with a 5xx; the SDK retries it with the same idempotency key", async () => {
    const { key, stripe } = fresh();
    emulator.failNextRequests({ status: 500 }, key);
    const error = await failure(stripe.customers.create({}));
    expect(error).toMatchObject({ type: "StripeAPIError", statusCode: 500 });
    expect((await stripe.customers.list()).data).toHaveLength(0);

    const retrying = sdkFor(emulator, key, { maxNetworkRetries: 2 });
    emulator.failNextRequests({ status: 503, shouldRetry: true }, key);
    const customer = await retrying.customers.create({ email: "retried@example.com" });
    expect(customer.email).toBe("retried@example.com");
    expect((await stripe.customers.list()).data).toHaveLength(1);
  });

  it("answers 503 while unreachable (also over HTTP), then recovers", async () => {
    const { key, stripe } = fresh();
    const call = (unreachable: boolean) =>
      fetch(`${emulator.url}/_emulator/unreachable`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ unreachable }),
      });
    expect((await call(true)).status).toBe(200);
    const error = await failure(stripe.customers.create({}));
    expect(error.statusCode).toBe(503);
    expect(await fresh().stripe.customers.list()).toBeTruthy();
    await call(false);
    expect((await stripe.customers.create({})).object).toBe("customer");
  });
});
