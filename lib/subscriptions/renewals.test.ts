import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { paymentAttempts } from "@/db/schema";
import { getBalances } from "@/lib/ledger/get-balances";
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


describe("a monthly subscription, end to end through the API and the emulator", () => {
  it("signs up, then renews when the sandbox clock moves a month: succeeded with cycle 2 and {order_id}-2", async () => {
    const { biz, receiver } = await subscriptionBusiness();
    const { sessionId, orderId, payment } = await signUp(biz);
    expect(payment.status).toBe("succeeded");
    const row = await subscriptionOfSession(sessionId);
    const first = await readSubscription(biz, row.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: "active",
      cycles_count: 1,
      interval: "month",
      interval_count: 1,
      interval_label: "every month",
      order_id: orderId,
      initial_session_id: sessionId,
      cancel_at_period_end: false,
      canceled_at: null,
      canceled_by: null,
      provider: "stripe",
      payment_method: "credit",
      currency: "USD",
      amount: 2500,
    });
    expect(first.body.management_url).toMatch(/\/manage\/[A-Za-z0-9_-]{43}$/);

    // The first payment saved the card for the off-session renewals.
    const [attempt] = await testDb()
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.sessionId, sessionId));
    const intent = await sdkFor(providers.current().emulator, emulatorKey(biz)).paymentIntents.retrieve(
      attempt!.providerPaymentId!,
    );
    expect(intent.setup_future_usage).toBe("off_session");

    await runJobs(biz.business.id); // the setup job and the signup webhook
    const set = await readSubscription(biz, row.id);
    expect(set.body.provider_subscription_id).toMatch(/^sub_/);
    await receiver.waitForRequests(1);
    const signup = received(receiver).find((b) => b.type === "succeeded")!;
    expect(signup).toMatchObject({ order_id: orderId, subscription: { id: row.id, cycle: 1 } });

    const balanceBefore = (await getBalances(testDb(), biz.business.id)).balance;
    const advanced = await advanceClock(biz, pastFirstRenewal);
    expect(advanced.status).toBe(200);
    await receiver.waitForRequests(2, 10_000);
    const renewal = received(receiver).find((b) => b.type === "succeeded" && b.order_id === `${orderId}-2`);
    expect(renewal).toMatchObject({
      type: "succeeded",
      order_id: `${orderId}-2`,
      amount: first.body.unit_amount,
      metadata: { plan: "pro" },
      customer: { name: "Ada", email: "ada@example.com" },
      subscription: { id: row.id, cycle: 2, management_url: first.body.management_url },
    });
    const after = await readSubscription(biz, row.id);
    expect(after.body).toMatchObject({ status: "active", cycles_count: 2 });
    expect(Date.parse(after.body.current_period_end!)).toBeGreaterThan(
      Date.parse(first.body.current_period_end!),
    );
    expect((renewal!.subscription as { current_period_end: string }).current_period_end).toBe(
      after.body.current_period_end,
    );
    expect((await getBalances(testDb(), biz.business.id)).balance).toBeGreaterThan(balanceBefore);

    // A renewal is a new session: its metadata names it, and GET /payment reads it under {order_id}-2.
    expect(signup.metadata).toMatchObject({ plan: "pro", integration_session_id: sessionId });
    const renewalSession = (renewal!.metadata as { integration_session_id?: unknown }).integration_session_id;
    expect(typeof renewalSession).toBe("string");
    expect(renewalSession).not.toBe(sessionId);
    const read = await api("GET", `/payment/${String(renewalSession)}`, { key: biz.secretKey });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      session_id: renewalSession,
      status: "succeeded",
      order_id: `${orderId}-2`,
      amount: first.body.unit_amount,
      metadata: { plan: "pro" },
    });
  });
});
