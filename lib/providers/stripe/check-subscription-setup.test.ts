import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businessPaymentMethods, businessProviders } from "@/db/schema";
import {
  NoSubscriptionMethodError,
  ProviderUnavailableError,
  SubscriptionSetupIncompleteError,
} from "@/lib/errors";
import { errorResponse } from "@/lib/http/respond";
import { paymentsBusiness, withSandboxProviders } from "@/lib/payments/testing/payment-fixtures";
import { newSecretKey, sdkFor } from "@kassa/stripe-emulator/testing";
import { countSessions, isErrorMessage } from "@/test/api-assertions";
import { api, sessionBody, testDb } from "@/test/helpers";
import { checkSubscriptionSetup } from "./check-subscription-setup";
import { connectStripe } from "./connect-stripe";
import { sandboxStripeKey } from "./sandbox-emulator";
import { stripeSubscriptionEvents } from "./stripe-client";

// Live businesses' own Stripe accounts are emulator accounts (connectStripe's options.api).
const providers = withSandboxProviders();
const url = "http://localhost:3000/api/payment/stripe/webhook";

async function connectedLive(options: { restricted?: boolean } = {}) {
  const biz = await paymentsBusiness({ mode: "live" });
  const key = newSecretKey();
  const emulator = providers.current().emulator;
  const stripe = sdkFor(emulator, key);
  if (options.restricted) {
    const restricted = emulator.createRestrictedKey(key, { deny: ["webhook_endpoints"] });
    const made = await stripe.webhookEndpoints.create({ url, enabled_events: ["invoice.paid"] });
    await connectStripe(
      testDb(),
      biz.business.id,
      { secretKey: restricted, webhookSecret: made.secret! },
      { api: emulator.stripeConfig },
    );
    return { biz, key, restricted, stripe, endpointId: made.id };
  }
  const connected = await connectStripe(
    testDb(),
    biz.business.id,
    { secretKey: key },
    { api: emulator.stripeConfig },
  );
  return { biz, key, restricted: null, stripe, endpointId: connected.webhookEndpoint!.id };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

async function cacheRow(businessId: string) {
  const [row] = await testDb()
    .select({ setupCheck: businessProviders.setupCheck, setupCheckedAt: businessProviders.setupCheckedAt })
    .from(businessProviders)
    .where(and(eq(businessProviders.businessId, businessId), eq(businessProviders.provider, "stripe")));
  return row!;
}

async function ageCache(businessId: string, seconds: number) {
  await testDb()
    .update(businessProviders)
    .set({ setupCheckedAt: sql`now() - make_interval(secs => ${seconds}::double precision)` })
    .where(and(eq(businessProviders.businessId, businessId), eq(businessProviders.provider, "stripe")));
}

describe("checkSubscriptionSetup", () => {
  it("passes with Kassa's endpoint, then answers from the cache for up to an hour without asking Stripe", async () => {
    const { biz, key } = await connectedLive();
    expect(await checkSubscriptionSetup(testDb(), biz.business)).toEqual({ status: "passed", cached: false });
    expect(await cacheRow(biz.business.id)).toMatchObject({
      setupCheck: "passed",
      setupCheckedAt: expect.any(String),
    });

    const emulator = providers.current().emulator;
    emulator.setUnreachable(true, key);
    try {
      await ageCache(biz.business.id, 3500);
      expect(await checkSubscriptionSetup(testDb(), biz.business)).toEqual({
        status: "passed",
        cached: true,
      });
      // Past the hour the cache is not trusted: Stripe is asked again (and is unreachable now).
      await ageCache(biz.business.id, 3700);
      const error = await rejection(checkSubscriptionSetup(testDb(), biz.business));
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      const response = errorResponse(error)!;
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        error: "provider_unavailable",
        message: expect.stringContaining("Stripe"),
      });
    } finally {
      emulator.setUnreachable(false, key);
    }
    expect(await checkSubscriptionSetup(testDb(), biz.business)).toEqual({ status: "passed", cached: false });
  });

  it("no endpoint at Kassa's URL: 400 subscription_setup_incomplete with all five events, not cached", async () => {
    const { biz, stripe, endpointId } = await connectedLive();
    await stripe.webhookEndpoints.del(endpointId);
    await stripe.webhookEndpoints.create({ url: "http://localhost:3000/elsewhere", enabled_events: ["*"] });
    const error = await rejection(checkSubscriptionSetup(testDb(), biz.business));
    expect(error).toBeInstanceOf(SubscriptionSetupIncompleteError);
    const response = errorResponse(error)!;
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "subscription_setup_incomplete",
      missing_events: [...stripeSubscriptionEvents],
    });
    expect(await cacheRow(biz.business.id)).toEqual({ setupCheck: null, setupCheckedAt: null });

    // Fixed at Stripe: the next session creation passes at once.
    await stripe.webhookEndpoints.create({ url, enabled_events: ["*"] });
    expect(await checkSubscriptionSetup(testDb(), biz.business)).toEqual({ status: "passed", cached: false });
  });

  it("a disabled endpoint misses every event; one lacking events names exactly those", async () => {
    const { biz, stripe, endpointId } = await connectedLive();
    await stripe.webhookEndpoints.update(endpointId, { disabled: true });
    await expect(checkSubscriptionSetup(testDb(), biz.business)).rejects.toMatchObject({
      missingEvents: [...stripeSubscriptionEvents],
    });
    await stripe.webhookEndpoints.update(endpointId, {
      disabled: false,
      enabled_events: ["payment_intent.succeeded", "invoice.paid", "customer.subscription.updated"],
    });
    await expect(checkSubscriptionSetup(testDb(), biz.business)).rejects.toMatchObject({
      missingEvents: [
        "invoice.payment_failed",
        "invoice.payment_action_required",
        "customer.subscription.deleted",
      ],
    });
  });

  it("a key that may not read endpoints skips the check (cached too)", async () => {
    const { biz } = await connectedLive({ restricted: true });
    expect(await checkSubscriptionSetup(testDb(), biz.business)).toEqual({
      status: "skipped",
      cached: false,
    });
    expect(await checkSubscriptionSetup(testDb(), biz.business)).toEqual({ status: "skipped", cached: true });
  });

  it("connecting again forgets the cached result", async () => {
    const { biz, key, stripe } = await connectedLive();
    expect(await checkSubscriptionSetup(testDb(), biz.business)).toMatchObject({ cached: false });
    expect(await checkSubscriptionSetup(testDb(), biz.business)).toMatchObject({ cached: true });
    const emulator = providers.current().emulator;
    const restricted = emulator.createRestrictedKey(key, { deny: ["webhook_endpoints"] });
    const pasted = await stripe.webhookEndpoints.create({ url, enabled_events: ["*"] });
    await connectStripe(
      testDb(),
      biz.business.id,
      { secretKey: restricted, webhookSecret: pasted.secret! },
      { api: emulator.stripeConfig },
    );
    expect(await cacheRow(biz.business.id)).toEqual({ setupCheck: null, setupCheckedAt: null });
    expect(await checkSubscriptionSetup(testDb(), biz.business)).toEqual({
      status: "skipped",
      cached: false,
    });
  });

  it("a live business without Stripe connected has no subscription method", async () => {
    const biz = await paymentsBusiness({ mode: "live" });
    await expect(checkSubscriptionSetup(testDb(), biz.business)).rejects.toBeInstanceOf(
      NoSubscriptionMethodError,
    );
  });

  it("a sandbox business just created passes: its emulator account has Kassa's endpoint", async () => {
    const biz = await paymentsBusiness();
    expect(await checkSubscriptionSetup(testDb(), biz.business)).toEqual({ status: "passed", cached: false });
    const endpoints = await sdkFor(
      providers.current().emulator,
      sandboxStripeKey(biz.business.id),
    ).webhookEndpoints.list();
    expect(endpoints.data).toHaveLength(1);
    expect(endpoints.data[0]).toMatchObject({ url, status: "enabled" });
  });

  it("a sandbox business whose emulator was unreachable at creation: 503, then connected on the next try", async () => {
    const emulator = providers.current().emulator;
    emulator.setUnreachable(true);
    let biz: Awaited<ReturnType<typeof paymentsBusiness>>;
    try {
      biz = await paymentsBusiness();
      const error = await rejection(checkSubscriptionSetup(testDb(), biz.business));
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect(errorResponse(error)!.status).toBe(503);
    } finally {
      emulator.setUnreachable(false);
    }
    expect(await checkSubscriptionSetup(testDb(), biz.business)).toEqual({ status: "passed", cached: false });
  });

  it("through POST /session: a subscription session answers 400 {error, missing_events} exactly and stores nothing", async () => {
    const { biz, endpointId, stripe } = await connectedLive();
    await stripe.webhookEndpoints.update(endpointId, {
      enabled_events: ["payment_intent.succeeded", "invoice.paid"],
    });
    const body = () => sessionBody({ subscription: { interval: "month" } });
    const res = await api("POST", "/session", { key: biz.secretKey, body: body() });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: "subscription_setup_incomplete",
      missing_events: stripeSubscriptionEvents.filter((e) => e !== "invoice.paid"),
    });
    expect(await countSessions(biz.business.id)).toBe(0);
    // A one-time session does not need the endpoint.
    expect((await api("POST", "/session", { key: biz.secretKey, body: sessionBody() })).status).toBe(201);
    await stripe.webhookEndpoints.update(endpointId, { enabled_events: ["*"] });
    expect((await api("POST", "/session", { key: biz.secretKey, body: body() })).status).toBe(201);
  });

  it("through POST /session, with the endpoint incomplete and methods off: which error wins", async () => {
    const { biz, endpointId, stripe } = await connectedLive();
    await stripe.webhookEndpoints.update(endpointId, { enabled_events: ["payment_intent.succeeded"] });
    const turnOff = (methodIds: string[]) =>
      testDb()
        .update(businessPaymentMethods)
        .set({ enabled: false })
        .where(
          and(
            eq(businessPaymentMethods.businessId, biz.business.id),
            inArray(businessPaymentMethods.methodId, methodIds),
          ),
        );
    const plan = (overrides: Record<string, unknown> = {}) =>
      api("POST", "/session", {
        key: biz.secretKey,
        body: sessionBody({ subscription: { interval: "month" }, ...overrides }),
      });
    // Card off, Apple Pay and Google Pay on: the plan could be billed, so the set-up check answers.
    await turnOff(["stripe_credit"]);
    expect((await plan()).body.error).toBe("subscription_setup_incomplete");
    // Forcing the disabled card: the method is not found first.
    expect((await plan({ paymentMethodId: "stripe_credit" })).body).toEqual({
      error: "Payment method not found",
    });
    // All three off: nothing could bill it, whatever the endpoint.
    await turnOff(["stripe_apple_pay", "stripe_google_pay"]);
    const none = await plan();
    expect(none.status).toBe(400);
    expect(none.body.error).toBe("no_subscription_method");
    expect(await countSessions(biz.business.id)).toBe(0);
  });

  it("through POST /session: a key that may not read endpoints skips the check and the session is created", async () => {
    const { biz } = await connectedLive({ restricted: true });
    const res = await api("POST", "/session", {
      key: biz.secretKey,
      body: sessionBody({ subscription: { interval: "month" } }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await countSessions(biz.business.id)).toBe(1);
  });

  it("through POST /session: a live business without Stripe keys answers 400 no_subscription_method, stores nothing", async () => {
    const biz = await paymentsBusiness({ mode: "live" });
    const res = await api("POST", "/session", {
      key: biz.secretKey,
      body: sessionBody({ subscription: { interval: "month" } }),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("no_subscription_method");
    expect(isErrorMessage(res.body), JSON.stringify(res.body)).toBe(true);
    expect(await countSessions(biz.business.id)).toBe(0);
  });
});
