import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StripeEmulator, startStripeEmulator } from "../../src/index";
import { advanceTestClock, customerWithSavedCard, newSecretKey, sdkFor } from "../../src/test-support";

let emulator: StripeEmulator;
beforeAll(async () => {
  emulator = await startStripeEmulator();
});
afterAll(() => emulator.close());

const hour = 3600;

async function failure(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (error) {
    return error as Stripe.errors.StripeError;
  }
  throw new Error("expected the request to fail");
}

async function setup() {
  const key = newSecretKey();
  const stripe = sdkFor(emulator, key);
  const saved = await customerWithSavedCard(stripe);
  const product = await stripe.products.create({ name: "Pro" });
  const price = await stripe.prices.create({
    product: product.id,
    currency: "usd",
    unit_amount: 2000,
    recurring: { interval: "month" },
  });
  return { key, stripe, ...saved, price };
}

const typesOf = (key: string) => emulator.events(key).map((event) => event.type);

describe("parameters", () => {
  it("refuses an unknown parameter (nested too) with Stripe's 400 parameter_unknown, before doing anything", async () => {
    const { key, stripe, customer, price } = await setup();
    const before = emulator.events(key).length;
    const top = await failure(
      stripe.customers.create({ email: "a@example.com", foo: "x" } as Stripe.CustomerCreateParams),
    );
    expect(top).toMatchObject({
      statusCode: 400,
      type: "StripeInvalidRequestError",
      code: "parameter_unknown",
      param: "foo",
      message: "Received unknown parameter: foo",
    });
    expect(top.raw).toMatchObject({
      request_log_url: `https://dashboard.stripe.com/test/logs/${String(top.requestId)}`,
    });
    const nested = await failure(
      stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id, foo: "x" } as Stripe.SubscriptionCreateParams.Item],
      }),
    );
    expect(nested).toMatchObject({ code: "parameter_unknown", param: "items[0][foo]" });
    expect(emulator.events(key).length).toBe(before);
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(0);
  });

  it("refuses, saying so, a parameter Stripe accepts that the emulator does not model", async () => {
    const { key, stripe } = await setup();
    const before = emulator.events(key).length;
    const error = await failure(stripe.customers.create({ email: "a@example.com", tax_exempt: "exempt" }));
    expect(error).toMatchObject({ statusCode: 400, param: "tax_exempt" });
    expect(error.message).toContain("The Stripe emulator does not support the parameter tax_exempt");
    expect(emulator.events(key).length).toBe(before);
  });
});

describe("renewal invoices", () => {
  it("stay draft for an hour on the test clock, then are finalized and charged (invoice.updated along the way)", async () => {
    const { key, stripe, clock, customer, paymentMethod, price } = await setup();
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      default_payment_method: paymentMethod,
    });
    const end = subscription.items.data[0]?.current_period_end ?? 0;
    const eventsBefore = emulator.events(key).length;
    await advanceTestClock(stripe, clock.id, end + 60);
    const [draft] = (await stripe.invoices.list({ subscription: subscription.id, limit: 1 })).data;
    expect(draft).toMatchObject({
      status: "draft",
      billing_reason: "subscription_cycle",
      automatically_finalizes_at: end + hour,
      attempt_count: 0,
      hosted_invoice_url: null,
    });
    expect(typesOf(key).slice(eventsBefore)).toContain("invoice.created");
    expect(typesOf(key).slice(eventsBefore)).not.toContain("invoice.finalized");

    await advanceTestClock(stripe, clock.id, end + hour + 60);
    const paid = await stripe.invoices.retrieve(draft?.id ?? "");
    expect(paid).toMatchObject({ status: "paid", attempt_count: 1, automatically_finalizes_at: null });
    expect(paid.status_transitions.finalized_at).toBe(end + hour);
    const later = typesOf(key).slice(eventsBefore);
    expect(later.indexOf("invoice.finalized")).toBeGreaterThan(later.indexOf("invoice.created"));
    expect(later.filter((type) => type === "invoice.updated").length).toBeGreaterThanOrEqual(2);
    expect(later.indexOf("invoice.paid")).toBeGreaterThan(later.indexOf("invoice.finalized"));
  });

  it("a failed attempt sends invoice.updated with the new attempt count", async () => {
    const { key, stripe, clock, customer, paymentMethod, price } = await setup();
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      default_payment_method: paymentMethod,
    });
    emulator.setCardBehavior(key, paymentMethod, "4000000000000341");
    await advanceTestClock(
      stripe,
      clock.id,
      (subscription.items.data[0]?.current_period_end ?? 0) + hour + 60,
    );
    const updates = emulator
      .events(key, "invoice.updated")
      .filter((event) => (event.data.object as { attempt_count: number }).attempt_count === 1);
    expect(updates.at(-1)?.data.previous_attributes).toMatchObject({ attempt_count: 0, attempted: false });
    expect(typesOf(key)).toContain("invoice.payment_failed");
  });
});

describe("invoice actions", () => {
  async function failingRenewal() {
    const context = await setup();
    const { key, stripe, clock, customer, paymentMethod, price } = context;
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      default_payment_method: paymentMethod,
    });
    emulator.setCardBehavior(key, paymentMethod, "4000000000000002");
    await advanceTestClock(
      stripe,
      clock.id,
      (subscription.items.data[0]?.current_period_end ?? 0) + hour + 60,
    );
    const [open] = (await stripe.invoices.list({ subscription: subscription.id, status: "open" })).data;
    if (!open) throw new Error("no open renewal invoice");
    return { ...context, open };
  }

  it("pay charges the payment_method given, not the default card", async () => {
    const { stripe, customer, open } = await failingRenewal();
    const other = await stripe.paymentMethods.attach("pm_card_mastercard", { customer: customer.id });
    const paid = await stripe.invoices.pay(open.id, {
      payment_method: other.id,
      expand: ["payments.data.payment.payment_intent"],
    });
    expect(paid.status).toBe("paid");
    const intent = paid.payments?.data[0]?.payment.payment_intent as Stripe.PaymentIntent;
    expect(intent).toMatchObject({ status: "succeeded", payment_method: other.id });
  });

  it("paid_out_of_band marks it paid without charging anything", async () => {
    const { key, stripe, customer, open } = await failingRenewal();
    const charges = (await stripe.charges.list({ customer: customer.id, limit: 100 })).data.length;
    const paid = await stripe.invoices.pay(open.id, { paid_out_of_band: true });
    expect(paid).toMatchObject({ status: "paid", amount_remaining: 0 });
    expect((await stripe.charges.list({ customer: customer.id, limit: 100 })).data).toHaveLength(charges);
    expect(typesOf(key).at(-1)).not.toBe("invoice.payment_succeeded");
    expect(typesOf(key)).toContain("invoice.paid");
  });

  it("mark_uncollectible makes it uncollectible, and stops retries", async () => {
    const { key, stripe, open } = await failingRenewal();
    const marked = await stripe.invoices.markUncollectible(open.id);
    expect(marked).toMatchObject({
      status: "uncollectible",
      next_payment_attempt: null,
      auto_advance: false,
    });
    expect(marked.status_transitions.marked_uncollectible_at).toEqual(expect.any(Number));
    expect(typesOf(key)).toContain("invoice.marked_uncollectible");
  });

  it("a finalized invoice links to a local HTML page and a valid PDF", async () => {
    const { open } = await failingRenewal();
    expect(open.hosted_invoice_url).toMatch(new RegExp(`^${emulator.url}/_emulator/invoices/`));
    const page = await fetch(open.hosted_invoice_url ?? "");
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain(open.number ?? "missing number");
    const pdf = await fetch(open.invoice_pdf ?? "");
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const bytes = Buffer.from(await pdf.arrayBuffer()).toString("latin1");
    expect(bytes.startsWith("%PDF-1.4")).toBe(true);
    expect(bytes.trimEnd().endsWith("%%EOF")).toBe(true);
    const xref = Number(/startxref\n(\d+)/.exec(bytes)?.[1]);
    expect(bytes.slice(xref, xref + 4)).toBe("xref");
  });

  it("the hosted page's card form pays the open invoice: a declined card leaves it open, a good one sends invoice.paid", async () => {
    const { key, stripe, open } = await failingRenewal();
    const pay = (card: string) =>
      fetch(open.hosted_invoice_url ?? "", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `card_number=${card}`,
      });
    const page = await (await fetch(open.hosted_invoice_url ?? "")).text();
    expect(page).toContain('name="card_number"');
    const declined = await pay("4000000000000002");
    expect(declined.status).toBe(200);
    expect(await declined.text()).toContain('data-paid="false"');
    expect((await stripe.invoices.retrieve(open.id)).status).toBe("open");
    const paid = await pay("4242424242424242");
    expect(await paid.text()).toContain('data-paid="true"');
    const invoice = await stripe.invoices.retrieve(open.id);
    expect(invoice).toMatchObject({ status: "paid", amount_remaining: 0 });
    expect(typesOf(key)).toContain("invoice.paid");
    // Paid: no form any more, and paying again changes nothing.
    const again = await (await pay("4242424242424242")).text();
    expect(again).toContain("already paid");
    expect(again).not.toContain('name="card_number"');
  });
});

describe("payment_behavior: default_incomplete", () => {
  it("leaves the first invoice open with a PaymentIntent whose confirmation pays it and activates the subscription", async () => {
    const key = newSecretKey();
    const stripe = sdkFor(emulator, key);
    const customer = await stripe.customers.create({ email: "new@example.com" });
    const product = await stripe.products.create({ name: "Pro" });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [
        {
          price_data: {
            currency: "usd",
            product: product.id,
            unit_amount: 1500,
            recurring: { interval: "month" },
          },
        },
      ],
      payment_behavior: "default_incomplete",
      payment_settings: { save_default_payment_method: "on_subscription" },
      expand: ["latest_invoice.confirmation_secret", "latest_invoice.payments.data.payment.payment_intent"],
    });
    expect(subscription.status).toBe("incomplete");
    const invoice = subscription.latest_invoice as Stripe.Invoice;
    expect(invoice.status).toBe("open");
    const intent = invoice.payments?.data[0]?.payment.payment_intent as Stripe.PaymentIntent;
    expect(intent).toMatchObject({ status: "requires_payment_method", amount: 1500 });
    expect(invoice.confirmation_secret?.client_secret).toBe(intent.client_secret);

    const confirmed = await stripe.paymentIntents.confirm(intent.id, { payment_method: "pm_card_visa" });
    expect(confirmed.status).toBe("succeeded");
    expect((await stripe.invoices.retrieve(invoice.id)).status).toBe("paid");
    const active = await stripe.subscriptions.retrieve(subscription.id);
    expect(active.status).toBe("active");
    expect(active.default_payment_method).toBe(confirmed.payment_method);
    const card = await stripe.paymentMethods.retrieve(String(confirmed.payment_method));
    expect(card.customer).toBe(customer.id);
  });
});
