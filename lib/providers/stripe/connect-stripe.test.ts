import { describe, expect, it } from "vitest";
import { stripePublishableKey } from "@/lib/checkout/stripe-publishable-key";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { paySession } from "@/lib/payments/pay-session";
import { newSession, paymentsBusiness, withSandboxProviders } from "@/lib/payments/testing/payment-fixtures";
import { newSecretKey, sdkFor } from "@kassa/stripe-emulator/testing";
import { api, testDb } from "@/test/helpers";
import { ProviderUnavailableError } from "@/lib/errors";
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
      keyKind: "secret",
      livemode: false,
      accountId: expect.stringMatching(/^acct_/),
      webhookSecretStored: true,
      missing: [],
      webhookEndpoint: {
        id: expect.stringMatching(/^we_/),
        url: "http://localhost:3000/api/payment/stripe/webhook",
        created: true,
        status: "enabled",
        missingEvents: [],
      },
    });
    expect([...connected.methods].sort()).toEqual(["stripe_apple_pay", "stripe_credit", "stripe_google_pay"]);
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
    expect(again).toMatchObject({
      active: true,
      webhookEndpoint: { id: connected.webhookEndpoint!.id, created: false },
    });
    expect((await sdkFor(providers.current().emulator, key).webhookEndpoints.list()).data).toHaveLength(1);

    await disconnectStripe(testDb(), biz.business.id);
    expect(await methods()).toEqual([]);
  });

  it("checks the keys, with Stripe's own message for a key it refuses", async () => {
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
      connectStripe(testDb(), biz.business.id, { secretKey: "sk_live_Kassa000000000000" }, { api: api_ }),
    ).rejects.toMatchObject({
      fields: { secretKey: [expect.stringContaining("Invalid API Key provided: sk_live_")] },
    });
    expect(await readProviderConfig(testDb(), biz.business.id, "stripe")).toMatchObject({
      active: false,
      config: {},
    });
    await expect(
      connectStripe(testDb(), sandbox.business.id, { secretKey: newSecretKey() }, { api: api_ }),
    ).rejects.toMatchObject({ code: "sandbox_business", message: expect.stringContaining("automatically") });
  });

  it("a restricted key that cannot manage endpoints: stored, methods off, until the merchant's signing secret", async () => {
    const biz = await paymentsBusiness({ mode: "live" });
    const api_ = providers.current().emulator.stripeConfig;
    const key = newSecretKey();
    const restricted = providers.current().emulator.createRestrictedKey(key, { deny: ["webhook_endpoints"] });
    const pending = await connectStripe(testDb(), biz.business.id, { secretKey: restricted }, { api: api_ });
    expect(pending).toMatchObject({
      active: false,
      keyKind: "restricted",
      webhookEndpoint: null,
      webhookSecretStored: false,
      missing: ["webhook_secret", "publishable_key"],
      methods: [],
      requiredEndpoint: {
        url: "http://localhost:3000/api/payment/stripe/webhook",
        events: expect.arrayContaining([
          "invoice.paid",
          "invoice.payment_failed",
          "invoice.payment_action_required",
          "customer.subscription.updated",
          "customer.subscription.deleted",
        ]),
      },
    });
    expect(
      (await readProviderConfig<StripeProviderConfig>(testDb(), biz.business.id, "stripe"))!,
    ).toMatchObject({
      active: false,
      config: { secretKey: restricted },
    });
    expect((await sdkFor(providers.current().emulator, key).webhookEndpoints.list()).data).toEqual([]);

    const connected = await connectStripe(
      testDb(),
      biz.business.id,
      { secretKey: restricted, publishableKey: publishable, webhookSecret: "whsec_fromTheDashboard123" },
      { api: api_ },
    );
    expect(connected).toMatchObject({
      active: true,
      webhookEndpoint: null,
      webhookSecretStored: true,
      missing: [],
    });
    expect([...connected.methods].sort()).toEqual(["stripe_apple_pay", "stripe_credit", "stripe_google_pay"]);
    const stored = (await readProviderConfig<StripeProviderConfig>(testDb(), biz.business.id, "stripe"))!;
    expect(stored.config.webhookSecret).toBe("whsec_fromTheDashboard123");
    // A later reconnect of the same key without the secret keeps it.
    const again = await connectStripe(testDb(), biz.business.id, { secretKey: restricted }, { api: api_ });
    expect(again).toMatchObject({ active: true, missing: [] });
  });

  it("a pasted secret with a key that reads endpoints reports the endpoint and what it lacks", async () => {
    const biz = await paymentsBusiness({ mode: "live" });
    const api_ = providers.current().emulator.stripeConfig;
    const key = newSecretKey();
    const made = await sdkFor(providers.current().emulator, key).webhookEndpoints.create({
      url: "http://localhost:3000/api/payment/stripe/webhook",
      enabled_events: ["invoice.paid", "payment_intent.succeeded"],
    });
    const connected = await connectStripe(
      testDb(),
      biz.business.id,
      { secretKey: key, publishableKey: publishable, webhookSecret: made.secret! },
      { api: api_ },
    );
    expect(connected).toMatchObject({
      active: true,
      missing: ["webhook_endpoint"],
      webhookEndpoint: { id: made.id, created: false, events: ["invoice.paid", "payment_intent.succeeded"] },
    });
    expect(connected.webhookEndpoint!.missingEvents).toContain("customer.subscription.deleted");
    expect(connected.webhookEndpoint!.missingEvents).not.toContain("invoice.paid");
  });

  it("reuses an endpoint at Kassa's URL only when its secret is known, else creates one", async () => {
    const biz = await paymentsBusiness({ mode: "live" });
    const api_ = providers.current().emulator.stripeConfig;
    const key = newSecretKey();
    const stripe = sdkFor(providers.current().emulator, key);
    const unknown = await stripe.webhookEndpoints.create({
      url: "http://localhost:3000/api/payment/stripe/webhook",
      enabled_events: ["*"],
    });
    const connected = await connectStripe(testDb(), biz.business.id, { secretKey: key }, { api: api_ });
    expect(connected.webhookEndpoint).toMatchObject({ created: true });
    expect(connected.webhookEndpoint!.id).not.toBe(unknown.id);
    const stored = (await readProviderConfig<StripeProviderConfig>(testDb(), biz.business.id, "stripe"))!;
    expect(stored.config).toMatchObject({ webhookEndpointId: connected.webhookEndpoint!.id });
    expect(stored.config.webhookSecret).not.toBe(unknown.secret);
    expect((await stripe.webhookEndpoints.list()).data.map((e) => e.id)).toEqual([
      connected.webhookEndpoint!.id,
    ]);
  });

  it("Stripe unreachable: 503 provider_unavailable, nothing stored", async () => {
    const biz = await paymentsBusiness({ mode: "live" });
    const emulator = providers.current().emulator;
    const key = newSecretKey();
    emulator.setUnreachable(true, key);
    try {
      await expect(
        connectStripe(testDb(), biz.business.id, { secretKey: key }, { api: emulator.stripeConfig }),
      ).rejects.toBeInstanceOf(ProviderUnavailableError);
    } finally {
      emulator.setUnreachable(false, key);
    }
    expect((await readProviderConfig(testDb(), biz.business.id, "stripe"))!.config).toEqual({});
  });
});
