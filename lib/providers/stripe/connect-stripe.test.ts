import { describe, expect, it } from "vitest";
import { stripePublishableKey } from "@/lib/checkout/stripe-publishable-key";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { paySession } from "@/lib/payments/pay-session";
import { newSession, paymentsBusiness, withSandboxProviders } from "@/lib/payments/testing/payment-fixtures";
import { newSecretKey, sdkFor } from "@kassa/stripe-emulator/testing";
import { api, testDb } from "@/test/helpers";
import { readProviderConfig } from "../provider-config";
import { connectStripe, disconnectStripe } from "./connect-stripe";
import type { StripeProviderConfig } from "./stripe-config";

// A live business's own Stripe account, played by an emulator account (options.api).
const providers = withSandboxProviders();
verifyLedgerAfterEach();

const checkout = { ip: "203.0.113.10", userAgent: "test", via: "checkout" as const };
const publishable = "pk_test_Kassa0000publishable";

describe("connectStripe", () => {
  it("activates a live business's card methods, creates the endpoint and keeps the keys encrypted", async () => {
    const biz = await paymentsBusiness({ mode: "live" });
    const methods = async () =>
      Object.keys((await api("GET", "/payments/methods", { key: biz.secretKey })).body).sort();
    expect(await methods()).toEqual([]);
    // Not connected: nothing can be paid.
    const early = await newSession(biz);
    await expect(
      paySession(
        testDb(),
        early.session_id,
        { paymentMethodId: "stripe_credit", stripePaymentMethodId: "pm_card_visa" },
        checkout,
      ),
    ).rejects.toMatchObject({ code: "payment_method_not_found" });

    const key = newSecretKey();
    const api_ = providers.current().emulator.stripeConfig;
    const connected = await connectStripe(
      testDb(),
      biz.business.id,
      { secretKey: key, publishableKey: publishable },
      { api: api_ },
    );
    expect(connected).toMatchObject({
      active: true,
      endpointCreated: true,
      webhookEndpointId: expect.stringMatching(/^we_/),
    });
    expect(await methods()).toEqual(["stripe_apple_pay", "stripe_credit", "stripe_google_pay"]);
    expect(await stripePublishableKey(testDb(), biz.business.id)).toBe(publishable);
    const stored = (await readProviderConfig<StripeProviderConfig>(testDb(), biz.business.id, "stripe"))!;
    expect(stored.config).toMatchObject({ secretKey: key, webhookSecret: expect.stringMatching(/^whsec_/) });
    const endpoints = await sdkFor(providers.current().emulator, key).webhookEndpoints.list();
    expect(endpoints.data.map((e) => e.url)).toEqual(["http://localhost:3000/api/payment/stripe/webhook"]);

    // Live payments take a PaymentMethod made by Stripe.js, never a card number.
    const session = await newSession(biz);
    await expect(
      paySession(
        testDb(),
        session.session_id,
        {
          paymentMethodId: "stripe_credit",
          card: { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123" },
        },
        checkout,
      ),
    ).rejects.toMatchObject({ fields: { card: [expect.any(String)] } });
    const paid = await paySession(
      testDb(),
      session.session_id,
      { paymentMethodId: "stripe_credit", stripePaymentMethodId: "pm_card_visa" },
      checkout,
    );
    expect(paid.payment).toMatchObject({
      status: "succeeded",
      provider: "stripe",
      payment_details: { card: { last4: "4242" } },
    });

    // Connecting again keeps the endpoint.
    const again = await connectStripe(
      testDb(),
      biz.business.id,
      { secretKey: key, publishableKey: publishable },
      { api: api_ },
    );
    expect(again).toMatchObject({ endpointCreated: false, webhookEndpointId: connected.webhookEndpointId });

    await disconnectStripe(testDb(), biz.business.id);
    expect(await methods()).toEqual([]);
  });

  it("checks the keys", async () => {
    const biz = await paymentsBusiness({ mode: "live" });
    const sandbox = await paymentsBusiness();
    const api_ = providers.current().emulator.stripeConfig;
    await expect(
      connectStripe(testDb(), biz.business.id, { secretKey: "nope", publishableKey: "pk_live_x" }),
    ).rejects.toMatchObject({
      fields: { secretKey: [expect.any(String)], publishableKey: [expect.any(String)] },
    });
    await expect(
      connectStripe(testDb(), biz.business.id, {
        secretKey: newSecretKey(),
        publishableKey: "pk_live_Kassa0000publishable",
      }),
    ).rejects.toMatchObject({ fields: { publishableKey: [expect.stringContaining("same mode")] } });
    // The emulator, like Stripe, refuses a live key in test mode.
    await expect(
      connectStripe(
        testDb(),
        biz.business.id,
        { secretKey: "sk_live_Kassa000000000000", publishableKey: "pk_live_Kassa0000publishable" },
        { api: api_ },
      ),
    ).rejects.toMatchObject({ fields: { secretKey: [expect.any(String)] } });
    await expect(
      connectStripe(
        testDb(),
        sandbox.business.id,
        { secretKey: newSecretKey(), publishableKey: publishable },
        { api: api_ },
      ),
    ).rejects.toMatchObject({ code: "validation_failed" });
  });

  it("a restricted key that cannot manage endpoints needs the merchant's signing secret", async () => {
    const biz = await paymentsBusiness({ mode: "live" });
    const api_ = providers.current().emulator.stripeConfig;
    const restricted = providers
      .current()
      .emulator.createRestrictedKey(newSecretKey(), { deny: ["webhook_endpoints"] });
    await expect(
      connectStripe(
        testDb(),
        biz.business.id,
        { secretKey: restricted, publishableKey: publishable },
        { api: api_ },
      ),
    ).rejects.toMatchObject({ fields: { webhookSecret: [expect.any(String)] } });
    const connected = await connectStripe(
      testDb(),
      biz.business.id,
      { secretKey: restricted, publishableKey: publishable, webhookSecret: "whsec_fromTheDashboard123" },
      { api: api_ },
    );
    expect(connected).toMatchObject({ active: true, endpointCreated: false, webhookEndpointId: null });
    const stored = (await readProviderConfig<StripeProviderConfig>(testDb(), biz.business.id, "stripe"))!;
    expect(stored.config.webhookSecret).toBe("whsec_fromTheDashboard123");
  });
});
