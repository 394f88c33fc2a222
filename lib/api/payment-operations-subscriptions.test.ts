import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { subscriptionCycles } from "@/db/schema";
import { getBalances } from "@/lib/ledger/get-balances";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import type { RefundView } from "@/lib/payments/refund-payment";
import { paymentRow, refundsOf } from "@/lib/payments/testing/payment-fixtures";
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
} from "@/lib/subscriptions/testing/subscription-fixtures";

// Refunds of subscription payments through POST /payments/{session_id}/refund: the signup payment
// (which ends the subscription) and a renewal (charged by the subscription's invoice at Stripe).

withLoopbackApi();
const providers = withSubscriptionProviders();
verifyLedgerAfterEach();


describe("refunding subscription payments through the API", () => {
  it("a refund of the signup payment cancels the subscription (system, initial_payment_refunded)", async () => {
    const { biz, receiver } = await subscriptionBusiness();
    const { sessionId, orderId } = await signUp(biz);
    await runJobs(biz.business.id);
    const row = await subscriptionOfSession(sessionId);
    expect((await readSubscription(biz, row.id)).body.provider_subscription_id).toMatch(/^sub_/);

    const res = await api<RefundView>("POST", `/payments/${sessionId}/refund`, { key: biz.secretKey });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "succeeded", amount: 2500, amount_refunded: 2500 });
    const after = await readSubscription(biz, row.id);
    expect(after.body).toMatchObject({
      status: "canceled",
      canceled_by: "system",
      cancellation_reason: "initial_payment_refunded",
    });
    await runJobs(biz.business.id); // ends it at Stripe and delivers the webhooks
    const atStripe = await sdkFor(providers.current().emulator, emulatorKey(biz)).subscriptions.retrieve(
      row.providerSubscriptionId ?? (await subscriptionOfSession(sessionId)).providerSubscriptionId!,
    );
    expect(atStripe.status).toBe("canceled");
    await receiver.waitForRequests(3, 10_000);
    const bodies = received(receiver);
    expect(bodies.find((b) => b.type === "refunded")).toMatchObject({
      order_id: orderId,
      refund: { id: res.body.id, amount: 2500, amount_refunded: 2500 },
    });
    expect(bodies.find((b) => b.type === "subscription_canceled")).toMatchObject({
      order_id: orderId,
      subscription: { id: row.id, cycle: 1 },
    });
  });

  it("a renewal payment is refunded at Stripe on the business's account, through the invoice's PaymentIntent", async () => {
    const { biz } = await subscriptionBusiness();
    const { sessionId, orderId } = await signUp(biz);
    await runJobs(biz.business.id);
    const row = await subscriptionOfSession(sessionId);
    expect((await advanceClock(biz, pastFirstRenewal)).status).toBe(200);
    const [cycle] = await testDb()
      .select()
      .from(subscriptionCycles)
      .where(and(eq(subscriptionCycles.subscriptionId, row.id), eq(subscriptionCycles.cycle, 2)));
    expect(cycle?.status).toBe("paid");
    const renewalSession = cycle!.sessionId!;
    const renewal = (await paymentRow(renewalSession))!;
    expect(renewal).toMatchObject({ status: "succeeded", providerPaymentId: expect.stringMatching(/^in_/) });
    const balanceBefore = (await getBalances(testDb(), biz.business.id)).balance;

    const res = await api<RefundView>("POST", `/payments/${renewalSession}/refund`, {
      key: biz.secretKey,
      body: { amount: 1000 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ session_id: renewalSession, amount: 1000, status: "succeeded" });
    const [stored] = await refundsOf(renewalSession);
    expect(stored!.providerPaymentId).toMatch(/^pi_/);
    const stripe = sdkFor(providers.current().emulator, emulatorKey(biz));
    const atStripe = await stripe.refunds.list({ payment_intent: stored!.providerPaymentId });
    expect(atStripe.data.map((r) => r.amount)).toEqual([1000]);
    expect((await getBalances(testDb(), biz.business.id)).balance).toBe(
      balanceBefore - res.body.balance_debit,
    );

    // The rest; the subscription itself goes on (only the signup payment's refund ends it).
    const rest = await api<RefundView>("POST", `/payments/${renewalSession}/refund`, { key: biz.secretKey });
    expect(rest.body).toMatchObject({ amount: 1500, amount_refunded: 2500 });
    expect((await readSubscription(biz, row.id)).body.status).toBe("active");
    await runJobs(biz.business.id);
    // Stripe's charge.refunded for the renewal's intent is not counted a second time.
    expect((await paymentRow(renewalSession))!.refundedAmount).toBe(2500);
    expect((await refundsOf(renewalSession)).map((r) => r.amount)).toEqual([1000, 1500]);
    expect(orderId).toBeTruthy();
  });
});
