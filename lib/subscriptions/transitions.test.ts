import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { subscriptions, webhookEvents } from "@/db/schema";
import { acceptReviewedPayment, declineReviewedPayment } from "@/lib/payments/review-payment";
import { refundPayment } from "@/lib/payments/refund-payment";
import { sdkFor } from "@kassa/stripe-emulator/testing";
import { api, testDb } from "@/test/helpers";
import {
  advanceClock,
  emulatorKey,
  pastFirstRenewal,
  readSubscription,
  received,
  runJobs,
  signUp,
  subscriptionBusiness,
  subscriptionOfSession,
  withLoopbackApi,
  withSubscriptionProviders,
} from "./testing/subscription-fixtures";

withLoopbackApi();
const providers = withSubscriptionProviders();
const emulator = () => providers.current().emulator;

const day = 86_400;

type Biz = Awaited<ReturnType<typeof subscriptionBusiness>>["biz"];

/** A signed-up subscription, created at Stripe (its setup job run). */
async function activeSubscription(options: Parameters<typeof signUp>[1] = {}) {
  const { biz, receiver } = await subscriptionBusiness();
  const signup = await signUp(biz, options);
  await runJobs(biz.business.id);
  const row = await subscriptionOfSession(signup.sessionId);
  expect(row.providerSubscriptionId).toMatch(/^sub_/);
  return { biz, receiver, ...signup, id: row.id, providerId: row.providerSubscriptionId! };
}

/** Webhook events written for a subscription, oldest first (what the receiver will get). */
async function eventsOf(subscriptionId: string) {
  const rows = await testDb()
    .select({ type: webhookEvents.type, body: webhookEvents.body })
    .from(webhookEvents)
    .where(eq(webhookEvents.subscriptionId, subscriptionId))
    .orderBy(webhookEvents.id);
  return rows.map((r) => ({ type: r.type, body: JSON.parse(r.body) as Record<string, unknown> }));
}

const view = async (biz: Biz, id: string) => (await readSubscription(biz, id)).body;

/** Seconds from the business's now to an hour past the subscription's next renewal. */
async function secondsToRenewal(biz: Biz, id: string): Promise<number> {
  const { businesses } = await import("@/db/schema");
  const [row] = await testDb().select().from(businesses).where(eq(businesses.id, biz.business.id));
  const end = Date.parse((await view(biz, id)).current_period_end!);
  return Math.ceil((end - (Date.now() + row!.clockOffsetMs)) / 1000) + 7200;
}

describe("signup", () => {
  it("the first $0 invoice of the anchored Stripe subscription is not a renewal", async () => {
    const { biz, id, providerId } = await activeSubscription();
    const key = emulatorKey(biz);
    await emulator().idle();
    await runJobs(biz.business.id);
    const invoicePaid = emulator()
      .events(key, "invoice.paid")
      .filter((e) => JSON.stringify(e.data.object).includes(providerId));
    expect(invoicePaid.length).toBeGreaterThan(0);
    expect(await view(biz, id)).toMatchObject({ cycles_count: 1, status: "active" });
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(["succeeded"]);
  });

  it("a payment held for review: pending_review first, the subscription only once accepted (succeeded, cycle 1)", async () => {
    const { biz } = await subscriptionBusiness();
    const { sessionId, payment } = await signUp(biz, { card: "4000000000009235" });
    expect(payment.status).toBe("pending_review");
    const none = await testDb()
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.initialSessionId, sessionId));
    expect(none).toEqual([]);
    await acceptReviewedPayment(testDb(), biz.business.id, sessionId);
    const row = await subscriptionOfSession(sessionId);
    expect(row).toMatchObject({ status: "active", cyclesCount: 1 });
    const types = (
      await testDb()
        .select({ type: webhookEvents.type, body: webhookEvents.body })
        .from(webhookEvents)
        .where(eq(webhookEvents.sessionId, sessionId))
    ).map((r) => [
      r.type,
      (JSON.parse(r.body) as { subscription?: { cycle: number } }).subscription?.cycle ?? null,
    ]);
    expect(types).toEqual([
      ["pending_review", null],
      ["succeeded", 1],
    ]);
  });

  it("a held signup payment that is declined starts no subscription: pending_review, then declined only", async () => {
    const { biz } = await subscriptionBusiness();
    const { sessionId, payment } = await signUp(biz, { card: "4000000000009235" });
    expect(payment.status).toBe("pending_review");
    await declineReviewedPayment(testDb(), biz.business.id, sessionId);
    await runJobs(biz.business.id);
    expect(
      await testDb().select().from(subscriptions).where(eq(subscriptions.initialSessionId, sessionId)),
    ).toEqual([]);
    const types = (
      await testDb()
        .select({ type: webhookEvents.type })
        .from(webhookEvents)
        .where(eq(webhookEvents.sessionId, sessionId))
        .orderBy(webhookEvents.id)
    ).map((r) => r.type);
    expect(types).toEqual(["pending_review", "declined"]);
    const read = await api("GET", `/payment/${sessionId}`, { key: biz.secretKey });
    expect(read.body.status).toBe("declined");
  });

  it("unit_amount leaves out the one-time screening fee but keeps fees passed to the customer", async () => {
    const { biz } = await subscriptionBusiness();
    const { businesses } = await import("@/db/schema");
    await testDb()
      .update(businesses)
      .set({ fraudScreeningFeeCents: 50, passFeesToCustomer: true })
      .where(eq(businesses.id, biz.business.id));
    const { sessionId, payment } = await signUp(biz);
    const row = await subscriptionOfSession(sessionId);
    expect(payment.amount).toBeGreaterThan(2500 + 50);
    expect(row.unitAmount).toBe((payment.amount as number) - 50);
    expect(row.amount).toBe(2500);
  });

  it("a subscription Stripe will not create is canceled by system with setup_failed:<code> and announced", async () => {
    const { biz } = await subscriptionBusiness();
    const { sessionId } = await signUp(biz);
    const row = await subscriptionOfSession(sessionId);
    await sdkFor(emulator(), emulatorKey(biz)).customers.del(row.providerCustomerId!);
    await runJobs(biz.business.id);
    const after = await view(biz, row.id);
    expect(after).toMatchObject({
      status: "canceled",
      canceled_by: "system",
      provider_subscription_id: null,
    });
    expect(after.cancellation_reason).toMatch(/^setup_failed:[a-z_]+$/);
    const events = await eventsOf(row.id);
    expect(events.map((e) => e.type)).toEqual(["succeeded", "subscription_canceled"]);
  });
});

describe("renewal failures", () => {
  it("4000000000000341: past_due with one subscription_payment_failed, then canceled by provider after the retries", async () => {
    const { biz, receiver, id, orderId } = await activeSubscription({ card: "4000000000000341" });
    emulator().setBilling(emulatorKey(biz), { retryDelaysSeconds: [day, day], afterRetries: "cancel" });
    await advanceClock(biz, await secondsToRenewal(biz, id));
    const failed = await view(biz, id);
    expect(failed).toMatchObject({ status: "past_due", cycles_count: 2 });
    await advanceClock(biz, day);
    expect(await view(biz, id)).toMatchObject({ status: "past_due", cycles_count: 2 });
    await advanceClock(biz, 2 * day);
    const ended = await view(biz, id);
    expect(ended).toMatchObject({
      status: "canceled",
      canceled_by: "provider",
      cancellation_reason: "payment_failed",
    });
    expect(ended.canceled_at).not.toBeNull();
    const events = await eventsOf(id);
    expect(events.map((e) => e.type)).toEqual([
      "succeeded",
      "subscription_payment_failed",
      "subscription_canceled",
    ]);
    const failure = events[1]!.body;
    expect(failure).toMatchObject({
      order_id: `${orderId}-2`,
      subscription: { id, cycle: 2, current_period_end: failed.current_period_end },
    });
    expect(typeof failure.failure_reason).toBe("string");
    expect(events[2]!.body).toMatchObject({ order_id: orderId, subscription: { id, cycle: 1 } });
    await receiver.waitForRequests(3, 10_000);
    expect(received(receiver).map((b) => b.type)).toEqual(events.map((e) => e.type));
  });

  it("ended by Stripe after the retries is the provider's (payment_failed), even with a cancellation the merchant scheduled", async () => {
    const { biz, id } = await activeSubscription({ card: "4000000000000341" });
    emulator().setBilling(emulatorKey(biz), { retryDelaysSeconds: [day, day], afterRetries: "cancel" });
    await advanceClock(biz, await secondsToRenewal(biz, id));
    expect(await view(biz, id)).toMatchObject({ status: "past_due" });
    const scheduled = await api("POST", `/subscriptions/${id}/cancel`, { key: biz.secretKey });
    expect(scheduled.body).toMatchObject({ cancel_at_period_end: true, cancel_requested_by: "api" });
    await advanceClock(biz, 3 * day);
    expect(await view(biz, id)).toMatchObject({
      status: "canceled",
      canceled_by: "provider",
      cancellation_reason: "payment_failed",
    });
    expect((await eventsOf(id)).map((e) => e.type)).toEqual([
      "succeeded",
      "subscription_payment_failed",
      "subscription_canceled",
    ]);
  });

  it("a retry that succeeds sends succeeded with the same order_id and makes it active again", async () => {
    const { biz, id, orderId } = await activeSubscription();
    const row = (await testDb().select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
    const key = emulatorKey(biz);
    emulator().setBilling(key, { retryDelaysSeconds: [day, day, day], afterRetries: "cancel" });
    emulator().setCardBehavior(key, row.providerPaymentMethodId!, "4000000000000341");
    await advanceClock(biz, pastFirstRenewal);
    const unpaid = await view(biz, id);
    expect(unpaid.status).toBe("past_due");
    emulator().setCardBehavior(key, row.providerPaymentMethodId!, "4242424242424242");
    await advanceClock(biz, day + 60);
    const paid = await view(biz, id);
    expect(paid).toMatchObject({ status: "active", cycles_count: 2 });
    expect(Date.parse(paid.current_period_end!)).toBeGreaterThan(Date.parse(unpaid.current_period_end!));
    const events = await eventsOf(id);
    expect(events.map((e) => [e.type, e.body.order_id])).toEqual([
      ["succeeded", orderId],
      ["subscription_payment_failed", `${orderId}-2`],
      ["succeeded", `${orderId}-2`],
    ]);
  });

  it("the provider left to leave it past due: past_due, no further event", async () => {
    const { biz, id } = await activeSubscription({ card: "4000000000000341" });
    emulator().setBilling(emulatorKey(biz), { retryDelaysSeconds: [day], afterRetries: "leave_past_due" });
    await advanceClock(biz, pastFirstRenewal);
    await advanceClock(biz, 3 * day);
    expect(await view(biz, id)).toMatchObject({ status: "past_due", canceled_at: null });
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(["succeeded", "subscription_payment_failed"]);
  });

  it("left past due, the next cycle's failed charge: one more subscription_payment_failed (cycle 3), nothing else", async () => {
    const { biz, id, orderId } = await activeSubscription({ card: "4000000000000341" });
    emulator().setBilling(emulatorKey(biz), { retryDelaysSeconds: [day], afterRetries: "leave_past_due" });
    await advanceClock(biz, pastFirstRenewal);
    await advanceClock(biz, 3 * day);
    const left = await view(biz, id);
    expect(left).toMatchObject({ status: "past_due", cycles_count: 2 });
    // The next period's renewal (Stripe keeps invoicing a subscription left past due) fails too.
    await advanceClock(biz, 30 * day);
    await advanceClock(biz, 3 * day);
    const again = await view(biz, id);
    expect(again).toMatchObject({ status: "past_due", cycles_count: 3, canceled_at: null });
    // Access is not extended by a failed renewal.
    expect(again.current_period_end).toBe(left.current_period_end);
    const events = await eventsOf(id);
    expect(events.map((e) => [e.type, e.body.order_id])).toEqual([
      ["succeeded", orderId],
      ["subscription_payment_failed", `${orderId}-2`],
      ["subscription_payment_failed", `${orderId}-3`],
    ]);
    expect(events[2]!.body).toMatchObject({
      subscription: { id, cycle: 3, current_period_end: left.current_period_end },
    });
  });

  it("a card that needs authentication: subscription_payment_failed with authentication_required, once", async () => {
    const { biz, id } = await activeSubscription({ card: "4000002760003184" });
    await advanceClock(biz, pastFirstRenewal);
    expect(await view(biz, id)).toMatchObject({ status: "past_due", cycles_count: 2 });
    const failures = (await eventsOf(id)).filter((e) => e.type === "subscription_payment_failed");
    expect(failures).toHaveLength(1);
    expect(failures[0]!.body.failure_reason).toBe("authentication_required");
  });
});

describe("cancellations that reach Kassa from Stripe and the period end", () => {
  it("scheduled by the API, ended at the period end: canceled, canceled_at set, subscription_canceled once", async () => {
    const { biz, id, orderId } = await activeSubscription();
    const res = await api("POST", `/subscriptions/${id}/cancel`, { key: biz.secretKey });
    expect(res.status).toBe(200);
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(["succeeded"]);
    await advanceClock(biz, pastFirstRenewal);
    const ended = await view(biz, id);
    expect(ended).toMatchObject({
      status: "canceled",
      canceled_by: "api",
      cancel_requested_by: "api",
      cancellation_reason: "requested_by_merchant",
      cycles_count: 1,
    });
    const events = await eventsOf(id);
    expect(events.map((e) => e.type)).toEqual(["succeeded", "subscription_canceled"]);
    expect(events[1]!.body).toMatchObject({ order_id: orderId, subscription: { id, cycle: 1 } });
  });

  it("canceled in the Stripe dashboard: canceled by provider, reason cancellation_requested", async () => {
    const { biz, id, providerId } = await activeSubscription();
    emulator().cancelSubscriptionFromDashboard(emulatorKey(biz), providerId);
    await emulator().idle();
    await runJobs(biz.business.id);
    expect(await view(biz, id)).toMatchObject({
      status: "canceled",
      canceled_by: "provider",
      cancellation_reason: "cancellation_requested",
    });
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(["succeeded", "subscription_canceled"]);
  });

  it("scheduled by the customer, then ended at once in the Stripe dashboard: the provider's, cancellation_requested", async () => {
    const { biz, id, providerId } = await activeSubscription();
    const { cancelSubscription } = await import("./cancel-subscription");
    await cancelSubscription(testDb(), biz.business.id, id, { atPeriodEnd: true, by: "payer" });
    await emulator().idle();
    await runJobs(biz.business.id);
    expect(await view(biz, id)).toMatchObject({ cancel_at_period_end: true, cancel_requested_by: "payer" });
    emulator().cancelSubscriptionFromDashboard(emulatorKey(biz), providerId);
    await emulator().idle();
    await runJobs(biz.business.id);
    const ended = await view(biz, id);
    expect(ended).toMatchObject({
      status: "canceled",
      canceled_by: "provider",
      cancellation_reason: "cancellation_requested",
      // Who had scheduled it stays on the record.
      cancel_requested_by: "payer",
    });
    expect(Date.parse(ended.canceled_at!)).toBeLessThan(Date.parse(ended.current_period_end!));
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(["succeeded", "subscription_canceled"]);
  });

  it("scheduled by the customer and reached at the period end: the customer's (requested_by_customer)", async () => {
    const { biz, id } = await activeSubscription();
    const { cancelSubscription } = await import("./cancel-subscription");
    await cancelSubscription(testDb(), biz.business.id, id, { atPeriodEnd: true, by: "payer" });
    await emulator().idle();
    await runJobs(biz.business.id);
    await advanceClock(biz, 31 * day);
    expect(await view(biz, id)).toMatchObject({
      status: "canceled",
      canceled_by: "payer",
      cancel_requested_by: "payer",
      cancellation_reason: "requested_by_customer",
    });
  });

  it("scheduled in the Stripe dashboard: synced with cancel_requested_by null, and the API may resume it", async () => {
    const { biz, id, providerId } = await activeSubscription();
    emulator().cancelSubscriptionFromDashboard(emulatorKey(biz), providerId, { atPeriodEnd: true });
    await emulator().idle();
    await runJobs(biz.business.id);
    expect(await view(biz, id)).toMatchObject({
      status: "active",
      cancel_at_period_end: true,
      cancel_requested_by: null,
      cancellation_reason: "cancellation_requested",
    });
    // Cancel with true on it: 200, nothing changes, the requester (none) kept.
    const again = await api("POST", `/subscriptions/${id}/cancel`, {
      key: biz.secretKey,
      body: { at_period_end: true },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      cancel_at_period_end: true,
      cancel_requested_by: null,
      cancellation_reason: "cancellation_requested",
    });
    const resumed = await api("POST", `/subscriptions/${id}/resume`, { key: biz.secretKey });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ cancel_at_period_end: false, cancel_requested_by: null });
    const atStripe = await sdkFor(emulator(), emulatorKey(biz)).subscriptions.retrieve(providerId);
    expect(atStripe.cancel_at_period_end).toBe(false);
  });

  it("a customer's cancellation withdrawn in the Stripe dashboard is applied again", async () => {
    const { biz, id, providerId } = await activeSubscription();
    const { cancelSubscription } = await import("./cancel-subscription");
    await cancelSubscription(testDb(), biz.business.id, id, { atPeriodEnd: true, by: "payer" });
    await emulator().idle();
    await runJobs(biz.business.id);
    emulator().resumeSubscriptionFromDashboard(emulatorKey(biz), providerId);
    await emulator().idle();
    await runJobs(biz.business.id);
    await emulator().idle();
    await runJobs(biz.business.id);
    expect(await view(biz, id)).toMatchObject({
      cancel_at_period_end: true,
      cancel_requested_by: "payer",
      cancellation_reason: "requested_by_customer",
    });
    const atStripe = await sdkFor(emulator(), emulatorKey(biz)).subscriptions.retrieve(providerId);
    expect(atStripe.cancel_at_period_end).toBe(true);
  });

  it("a refund of the signup payment cancels it (system, initial_payment_refunded) here and at Stripe", async () => {
    const { biz, id, providerId, sessionId } = await activeSubscription();
    await refundPayment(testDb(), biz.business.id, sessionId);
    expect(await view(biz, id)).toMatchObject({
      status: "canceled",
      canceled_by: "system",
      cancellation_reason: "initial_payment_refunded",
    });
    await runJobs(biz.business.id);
    const atStripe = await sdkFor(emulator(), emulatorKey(biz)).subscriptions.retrieve(providerId);
    expect(atStripe.status).toBe("canceled");
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(["succeeded", "subscription_canceled"]);
  });

  it("a partial refund of the signup payment keeps the plan; the refund that completes it ends it", async () => {
    const { biz, id, providerId, sessionId } = await activeSubscription();
    // A goodwill refund of $1: the plan goes on, here and at Stripe.
    await refundPayment(testDb(), biz.business.id, sessionId, { amount: 100 });
    expect(await view(biz, id)).toMatchObject({
      status: "active",
      canceled_by: null,
      cancellation_reason: null,
    });
    await runJobs(biz.business.id);
    const stripe = sdkFor(emulator(), emulatorKey(biz));
    expect((await stripe.subscriptions.retrieve(providerId)).status).toBe("active");
    expect((await eventsOf(id)).map((e) => e.type)).toEqual(["succeeded"]);
    // The rest: now refunded in full, the plan ends.
    await refundPayment(testDb(), biz.business.id, sessionId);
    expect(await view(biz, id)).toMatchObject({
      status: "canceled",
      canceled_by: "system",
      cancellation_reason: "initial_payment_refunded",
    });
    await runJobs(biz.business.id);
    expect((await stripe.subscriptions.retrieve(providerId)).status).toBe("canceled");
  });
});

describe("inbound subscription events: the signature", () => {
  it("refuses each of the five events unless signed with the business's own secret (400, not stored)", async () => {
    const { biz, providerId } = await activeSubscription();
    const { biz: other } = await subscriptionBusiness();
    await signUp(other);
    const key = emulatorKey(biz);
    await advanceClock(biz, pastFirstRenewal);
    const { providerEvents } = await import("@/db/schema");
    const { readProviderConfig } = await import("@/lib/providers/provider-config");
    const secretOf = async (businessId: string): Promise<string> =>
      (await readProviderConfig<{ webhookSecret: string }>(testDb(), businessId, "stripe"))!.config
        .webhookSecret!;
    const { signatureHeader } = await import("@kassa/stripe-emulator");
    emulator().cancelSubscriptionFromDashboard(key, providerId);
    await emulator().idle();
    const types = ["invoice.paid", "customer.subscription.updated", "customer.subscription.deleted"];
    const stored = async () =>
      (await testDb().select().from(providerEvents).where(eq(providerEvents.businessId, biz.business.id)))
        .length;
    for (const type of types) {
      const event = emulator()
        .events(key, type)
        .find((e) => JSON.stringify(e.data.object).includes(providerId));
      expect(event, type).toBeDefined();
      const payload = JSON.stringify({ ...event, id: `${event!.id}_replay` });
      const before = await stored();
      const now = Math.floor(Date.now() / 1000);
      for (const signature of [
        "t=1,v1=00",
        signatureHeader(payload, "whsec_wrong", now),
        signatureHeader(payload, await secretOf(other.business.id), now),
        signatureHeader(payload, await secretOf(biz.business.id), now - 3600),
      ]) {
        const res = await api("POST", "/payment/stripe/webhook", {
          rawBody: payload,
          headers: { "stripe-signature": signature },
        });
        expect(res.status, `${type} ${signature}`).toBe(400);
        expect(res.body.error).toBe("invalid_signature");
      }
      expect(await stored()).toBe(before);
      const good = await api("POST", "/payment/stripe/webhook", {
        rawBody: payload,
        headers: { "stripe-signature": signatureHeader(payload, await secretOf(biz.business.id), now) },
      });
      expect(good.body).toMatchObject({ received: true, status: "accepted" });
    }
  });
});
