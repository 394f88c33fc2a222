import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StripeEmulator, startStripeEmulator } from "../src/index";
import { newSecretKey, sdkFor } from "../src/test-support";

let emulator: StripeEmulator;
let key: string;
let stripe: Stripe;

beforeAll(async () => {
  emulator = await startStripeEmulator();
  key = newSecretKey();
  stripe = sdkFor(emulator, key);
});
afterAll(() => emulator.close());

/** Creates a card PaymentMethod from a raw number, as Kassa's sandbox helper does. */
const cardMethod = (number: string) =>
  stripe.paymentMethods.create({ type: "card", card: { number, exp_month: 12, exp_year: 2034, cvc: "123" } });

const pay = (paymentMethod: string, extra: Partial<Stripe.PaymentIntentCreateParams> = {}) =>
  stripe.paymentIntents.create({
    amount: 2500,
    currency: "usd",
    payment_method: paymentMethod,
    allowed_payment_method_types: ["card"],
    confirm: true,
    expand: ["latest_charge"],
    ...extra,
  });

async function declineOf(promise: Promise<unknown>) {
  const error = (await promise.then(
    () => {
      throw new Error("expected a card error");
    },
    (e: unknown) => e,
  )) as Stripe.errors.StripeCardError;
  expect(error.type).toBe("StripeCardError");
  expect(error.statusCode).toBe(402);
  return error;
}

describe("Stripe test cards through the SDK", () => {
  it("4242424242424242 succeeds, with the card's details on the charge", async () => {
    const method = await cardMethod("4242424242424242");
    expect(method.card).toMatchObject({
      brand: "visa",
      last4: "4242",
      country: "US",
      exp_month: 12,
      exp_year: 2034,
    });
    const intent = await pay(method.id);
    expect(intent.status).toBe("succeeded");
    expect(intent.amount_received).toBe(2500);
    const charge = intent.latest_charge as Stripe.Charge;
    expect(charge.status).toBe("succeeded");
    expect(charge.payment_method_details?.card).toMatchObject({
      brand: "visa",
      last4: "4242",
      exp_month: 12,
      exp_year: 2034,
      country: "US",
    });
    expect(charge.outcome).toMatchObject({
      type: "authorized",
      risk_level: "normal",
      network_status: "approved_by_network",
    });
  });

  it("4000000000000002 is declined with card_declined / generic_decline", async () => {
    const method = await cardMethod("4000000000000002");
    const error = await declineOf(pay(method.id));
    expect(error.code).toBe("card_declined");
    expect(error.decline_code).toBe("generic_decline");
    expect(error.message).toBe("Your card was declined.");
    expect(error.payment_intent?.status).toBe("requires_payment_method");
    expect(error.payment_intent?.last_payment_error?.decline_code).toBe("generic_decline");
    const charge = await stripe.charges.retrieve(String(error.charge));
    expect(charge).toMatchObject({ status: "failed", failure_code: "card_declined", paid: false });
    expect(charge.outcome?.type).toBe("issuer_declined");
  });

  it("4000000000009995 is declined for insufficient funds", async () => {
    const method = await cardMethod("4000000000009995");
    const error = await declineOf(pay(method.id));
    expect(error.code).toBe("card_declined");
    expect(error.decline_code).toBe("insufficient_funds");
    expect(error.message).toBe("Your card has insufficient funds.");
  });

  it("4000000000000341 attaches to a customer, then every charge fails", async () => {
    const method = await cardMethod("4000000000000341");
    const customer = await stripe.customers.create({ payment_method: method.id });
    expect((await stripe.paymentMethods.retrieve(method.id)).customer).toBe(customer.id);
    const error = await declineOf(pay(method.id, { customer: customer.id, off_session: true }));
    expect(error.decline_code).toBe("generic_decline");
    await declineOf(pay(method.id, { customer: customer.id, off_session: true }));
  });

  it("a declining card cannot be attached (Stripe checks it with the issuer)", async () => {
    const method = await cardMethod("4000000000000002");
    const customer = await stripe.customers.create({});
    const error = await declineOf(stripe.paymentMethods.attach(method.id, { customer: customer.id }));
    expect(error.decline_code).toBe("generic_decline");
  });

  it("4000002760003184 needs 3D Secure on every charge: the first one completes, renewals fail", async () => {
    const customer = await stripe.customers.create({});
    const method = await cardMethod("4000002760003184");
    const intent = await pay(method.id, { customer: customer.id, setup_future_usage: "off_session" });
    expect(intent.status).toBe("requires_action");
    expect(intent.next_action?.type).toBe("use_stripe_sdk");
    expect(intent.latest_charge).toBeNull();

    const completed = emulator.authenticatePaymentIntent(key, intent.id, "succeed");
    expect(completed.status).toBe("succeeded");
    const after = await stripe.paymentIntents.retrieve(intent.id, { expand: ["latest_charge"] });
    expect(after.status).toBe("succeeded");
    expect((after.latest_charge as Stripe.Charge).payment_method_details?.card?.three_d_secure?.result).toBe(
      "authenticated",
    );
    expect((await stripe.paymentMethods.retrieve(method.id)).customer).toBe(customer.id);

    const error = await declineOf(pay(method.id, { customer: customer.id, off_session: true }));
    expect(error.code).toBe("authentication_required");
    expect(error.decline_code).toBe("authentication_required");
  });

  it("a failed 3D Secure challenge asks for another payment method", async () => {
    const method = await cardMethod("4000002760003184");
    const intent = await pay(method.id, { return_url: "https://shop.example/return" });
    expect(intent.next_action?.type).toBe("redirect_to_url");
    expect(intent.next_action?.redirect_to_url?.url).toContain(`${emulator.url}/_emulator/3ds/`);
    const response = await fetch(`${emulator.url}/_emulator/payment_intents/${intent.id}/authenticate`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ outcome: "fail" }),
    });
    expect(response.status).toBe(200);
    const failed = await stripe.paymentIntents.retrieve(intent.id);
    expect(failed.status).toBe("requires_payment_method");
    expect(failed.last_payment_error?.code).toBe("payment_intent_authentication_failure");
  });

  it("4000000000009235 succeeds with an elevated risk level", async () => {
    const method = await cardMethod("4000000000009235");
    const intent = await pay(method.id);
    expect(intent.status).toBe("succeeded");
    expect((intent.latest_charge as Stripe.Charge).outcome).toMatchObject({
      risk_level: "elevated",
      type: "authorized",
    });
  });

  it("4100000000000019 is blocked by fraud prevention", async () => {
    const method = await cardMethod("4100000000000019");
    const error = await declineOf(pay(method.id));
    expect(error.code).toBe("card_declined");
    expect(error.decline_code).toBe("fraudulent");
    const charge = await stripe.charges.retrieve(String(error.charge));
    expect(charge.outcome).toMatchObject({
      type: "blocked",
      risk_level: "highest",
      network_status: "not_sent_to_network",
    });
  });

  it("brand and country follow the number; pm_card_* test methods work", async () => {
    expect((await cardMethod("378282246310005")).card).toMatchObject({
      brand: "amex",
      last4: "0005",
      country: "US",
    });
    expect((await cardMethod("5555555555554444")).card?.brand).toBe("mastercard");
    expect((await cardMethod("4000000760000002")).card).toMatchObject({ brand: "visa", country: "BR" });
    const intent = await pay("pm_card_mastercard");
    expect((intent.latest_charge as Stripe.Charge).payment_method_details?.card?.brand).toBe("mastercard");
  });

  it("rejects a number that fails the Luhn check, and an expired card", async () => {
    const wrong = await declineOf(cardMethod("4242424242424241"));
    expect(wrong.code).toBe("incorrect_number");
    const expired = await declineOf(
      stripe.paymentMethods.create({
        type: "card",
        card: { number: "4242424242424242", exp_month: 1, exp_year: 2020 },
      }),
    );
    expect(expired.code).toBe("invalid_expiry_year");
  });

  it("an unattached card is single-use, as on Stripe", async () => {
    const method = await cardMethod("4242424242424242");
    await pay(method.id);
    const error = await pay(method.id).catch((e: Stripe.errors.StripeError) => e);
    expect(error).toMatchObject({
      type: "StripeInvalidRequestError",
      statusCode: 400,
      param: "payment_method",
    });
  });
});
