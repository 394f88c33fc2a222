import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookEvents } from "@/db/schema";
import { sdkFor } from "@kassa/stripe-emulator/testing";
import { ForbiddenError, SubscriptionNotFoundError, SubscriptionUpdateFailedError } from "@/lib/errors";
import { api, testDb } from "@/test/helpers";
import { cancelManagedSubscription } from "./cancel-managed-subscription";
import { getManagedSubscription } from "./get-managed-subscription";
import { managementToken } from "./management-token";
import { resumeManagedSubscription } from "./resume-managed-subscription";
import {
  advanceClock,
  emulatorKey,
  pastFirstRenewal,
  readSubscription,
  runJobs,
  signUp,
  subscriptionBusiness,
  subscriptionOfSession,
  withLoopbackApi,
  withSubscriptionProviders,
} from "./testing/subscription-fixtures";

withLoopbackApi();
const providers = withSubscriptionProviders();

async function subscribed(options: Parameters<typeof signUp>[1] = {}) {
  const { biz } = await subscriptionBusiness();
  const signup = await signUp(biz, options);
  await runJobs(biz.business.id);
  const row = await subscriptionOfSession(signup.sessionId);
  return { biz, row, token: managementToken(row.id) };
}

describe("getManagedSubscription", () => {
  it("opens the subscription of a token with what the page shows, the card from the signup payment", async () => {
    const { biz, row, token } = await subscribed({
      overrides: { items: [{ name: "Pro plan", quantity: 1, price: 2500 }] },
    });
    const managed = await getManagedSubscription(testDb(), token);
    const view = (await readSubscription(biz, row.id)).body;
    expect(managed).toEqual({
      id: row.id,
      businessId: biz.business.id,
      merchant: biz.business.name,
      mode: "sandbox",
      status: "active",
      amount: view.unit_amount,
      currency: "USD",
      interval: "month",
      intervalCount: 1,
      itemNames: ["Pro plan"],
      currentPeriodEnd: view.current_period_end,
      cancelAtPeriodEnd: false,
      cancelRequestedBy: null,
      canceledAt: null,
      card: { brand: "visa", last4: "4242" },
    });
    expect(view.management_url).toMatch(new RegExp(`/manage/${token}$`));
  });

  it("answers null for an unknown, malformed or foreign-shaped token", async () => {
    const { token } = await subscribed();
    const unknown = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    for (const candidate of [
      unknown,
      "",
      "abc",
      `${token}x`,
      token.replace(/.$/, "="),
      "../../etc/passwd",
      "%00",
    ])
      expect(await getManagedSubscription(testDb(), candidate), candidate).toBeNull();
  });
});

describe("cancelManagedSubscription and resumeManagedSubscription", () => {
  it("schedules the end as the payer (at Stripe too), and the payer can undo it", async () => {
    const { biz, row, token } = await subscribed();
    const stripe = () =>
      sdkFor(providers.current().emulator, emulatorKey(biz)).subscriptions.retrieve(
        row.providerSubscriptionId!,
      );
    await cancelManagedSubscription(testDb(), token);
    expect((await readSubscription(biz, row.id)).body).toMatchObject({
      status: "active",
      cancel_at_period_end: true,
      cancel_requested_by: "payer",
      cancellation_reason: "requested_by_customer",
    });
    expect((await stripe()).cancel_at_period_end).toBe(true);
    // Scheduling sends no event: only the signup's `succeeded` so far.
    await runJobs(biz.business.id);
    const types = await testDb()
      .select({ type: webhookEvents.type })
      .from(webhookEvents)
      .where(eq(webhookEvents.subscriptionId, row.id));
    expect(types.map((t) => t.type)).toEqual(["succeeded"]);
    // The business cannot withdraw the customer's own cancellation; the customer can.
    expect((await api("POST", `/subscriptions/${row.id}/resume`, { key: biz.secretKey })).status).toBe(403);
    await resumeManagedSubscription(testDb(), token);
    expect((await readSubscription(biz, row.id)).body).toMatchObject({
      cancel_at_period_end: false,
      cancel_requested_by: null,
      cancellation_reason: null,
    });
    expect((await stripe()).cancel_at_period_end).toBe(false);
  });

  it("cannot undo a cancellation the business scheduled, and keeps its requester", async () => {
    const { biz, row, token } = await subscribed();
    expect((await api("POST", `/subscriptions/${row.id}/cancel`, { key: biz.secretKey })).status).toBe(200);
    await expect(resumeManagedSubscription(testDb(), token)).rejects.toBeInstanceOf(ForbiddenError);
    // Cancelling again from the page changes nothing: the business stays the requester.
    await cancelManagedSubscription(testDb(), token);
    expect((await readSubscription(biz, row.id)).body).toMatchObject({
      cancel_at_period_end: true,
      cancel_requested_by: "api",
      cancellation_reason: "requested_by_merchant",
    });
  });

  it("a past_due subscription: the customer cannot cancel from the link (the interface: from active only); the API still can", async () => {
    const { biz, row, token } = await subscribed({ card: "4000000000000341" });
    await advanceClock(biz, pastFirstRenewal);
    expect((await readSubscription(biz, row.id)).body.status).toBe("past_due");
    await expect(cancelManagedSubscription(testDb(), token)).rejects.toBeInstanceOf(
      SubscriptionUpdateFailedError,
    );
    expect((await readSubscription(biz, row.id)).body).toMatchObject({
      status: "past_due",
      cancel_at_period_end: false,
      cancel_requested_by: null,
      cancellation_reason: null,
    });
    const stripe = sdkFor(providers.current().emulator, emulatorKey(biz));
    expect((await stripe.subscriptions.retrieve(row.providerSubscriptionId!)).cancel_at_period_end).toBe(
      false,
    );
    // The business's cancel works on past_due, and the customer cannot undo the business's.
    const scheduled = await api("POST", `/subscriptions/${row.id}/cancel`, { key: biz.secretKey });
    expect(scheduled.body).toMatchObject({
      status: "past_due",
      cancel_at_period_end: true,
      cancel_requested_by: "api",
    });
    await expect(resumeManagedSubscription(testDb(), token)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("an unknown token is not found", async () => {
    await expect(cancelManagedSubscription(testDb(), "A".repeat(43))).rejects.toBeInstanceOf(
      SubscriptionNotFoundError,
    );
    await expect(resumeManagedSubscription(testDb(), "nope")).rejects.toBeInstanceOf(
      SubscriptionNotFoundError,
    );
  });
});
