import { describe, expect, it } from "vitest";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { transferToPayoutBalance } from "@/lib/ledger/transfer-to-payout-balance";
import { sandboxStripeKey } from "@/lib/providers/stripe/sandbox-emulator";
import { sdkFor } from "@kassa/stripe-emulator/testing";
import { testDb } from "@/test/helpers";
import { listRefunds, refundPayment } from "./refund-payment";
import {
  balanceOf,
  eventBodies,
  eventTypes,
  helperPay,
  newSession,
  paymentRow,
  paymentsBusiness,
  refundsOf,
  withSandboxProviders,
} from "./testing/payment-fixtures";

const providers = withSandboxProviders();
verifyLedgerAfterEach();

const stripeOf = (businessId: string) => sdkFor(providers.current().emulator, sandboxStripeKey(businessId));

async function paidSession(
  biz: Awaited<ReturnType<typeof paymentsBusiness>>,
  body: Record<string, unknown> = {},
) {
  const { session_id } = await newSession(biz);
  const paid = await helperPay(biz, session_id, body);
  expect(paid.body.status).toBe("succeeded");
  return session_id;
}

describe("refundPayment", () => {
  it("refunds in part, then the rest: the business gives back the refunded share of its net", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidSession(biz);
    expect(await balanceOf(biz)).toBe(2397);

    const first = await refundPayment(testDb(), biz.business.id, sessionId, { amount: 1000 });
    expect(first).toMatchObject({
      session_id: sessionId,
      amount: 1000,
      balance_debit: 958,
      status: "succeeded",
    });
    expect(await balanceOf(biz)).toBe(2397 - 958);
    expect(await eventTypes(sessionId)).toEqual(["succeeded", "refunded"]);
    expect((await eventBodies(sessionId))[1]).toMatchObject({ type: "refunded", amount: 2500, fees: 103 });

    await expect(refundPayment(testDb(), biz.business.id, sessionId, { amount: 1501 })).rejects.toMatchObject(
      { code: "amount_exceeds_refundable", message: expect.stringContaining("1500") },
    );
    const rest = await refundPayment(testDb(), biz.business.id, sessionId);
    expect(rest).toMatchObject({ amount: 1500, balance_debit: 2397 - 958, status: "succeeded" });
    expect(await balanceOf(biz)).toBe(0);
    expect((await paymentRow(sessionId))!.refundedAmount).toBe(2500);
    await expect(refundPayment(testDb(), biz.business.id, sessionId, { amount: 1 })).rejects.toMatchObject({
      code: "payment_fully_refunded",
    });

    const payment = (await paymentRow(sessionId))!;
    const atStripe = await stripeOf(biz.business.id).refunds.list({
      payment_intent: payment.providerPaymentId!,
    });
    expect(atStripe.data.map((r) => r.amount).sort()).toEqual([1000, 1500]);
    expect((await listRefunds(testDb(), biz.business.id, sessionId)).data.map((r) => r.amount)).toEqual([
      1500, 1000,
    ]);
    // Receivers deduplicate on order_id plus type: the second refund comes as `refunded_again`.
    expect(await eventTypes(sessionId)).toEqual(["succeeded", "refunded", "refunded_again"]);
    expect((await eventBodies(sessionId))[2]).toMatchObject({
      type: "refunded_again",
      refund: { amount: 1500, amount_refunded: 2500 },
    });
    // The Payment itself still reads succeeded (the interface has no refunded status).
    expect(payment.status).toBe("succeeded");
  });

  it("refuses clearly when the business balance cannot cover the refund, and refunds nothing", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidSession(biz);
    await transferToPayoutBalance(testDb(), biz.business.id, 2000);
    await expect(refundPayment(testDb(), biz.business.id, sessionId)).rejects.toMatchObject({
      code: "insufficient_balance",
    });
    expect(await refundsOf(sessionId)).toEqual([]);
    expect((await paymentRow(sessionId))!.refundedAmount).toBe(0);
    const payment = (await paymentRow(sessionId))!;
    expect(
      (await stripeOf(biz.business.id).refunds.list({ payment_intent: payment.providerPaymentId! })).data,
    ).toEqual([]);
    // What the balance covers still works.
    const small = await refundPayment(testDb(), biz.business.id, sessionId, { amount: 400 });
    expect(small).toMatchObject({ status: "succeeded", balance_debit: 383 });
  });

  it("refunds a redirect payment at the sandbox provider", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz, { paymentMethodId: "sandbox_bitcoin" });
    await helperPay(biz, session_id);
    const refund = await refundPayment(testDb(), biz.business.id, session_id, { amount: 2500 });
    expect(refund).toMatchObject({ status: "succeeded", balance_debit: 2475 });
    expect(await balanceOf(biz)).toBe(0);
  });

  it("only succeeded payments of the business can be refunded", async () => {
    const biz = await paymentsBusiness();
    const other = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    await expect(refundPayment(testDb(), biz.business.id, session_id)).rejects.toMatchObject({
      code: "payment_not_refundable",
    });
    await helperPay(biz, session_id, { card_number: "4000000000000002" });
    await expect(refundPayment(testDb(), biz.business.id, session_id)).rejects.toMatchObject({
      code: "payment_not_refundable",
    });
    const paid = await paidSession(biz);
    await expect(refundPayment(testDb(), other.business.id, paid)).rejects.toMatchObject({
      code: "payment_not_found",
    });
    await expect(refundPayment(testDb(), biz.business.id, paid, { amount: 0 })).rejects.toMatchObject({
      code: "validation_failed",
    });
  });

  it("concurrent refunds never exceed the payment", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidSession(biz);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => refundPayment(testDb(), biz.business.id, sessionId, { amount: 1000 })),
    );
    const done = results.filter((r) => r.status === "fulfilled");
    expect(done).toHaveLength(2);
    expect((await paymentRow(sessionId))!.refundedAmount).toBe(2000);
    expect(await balanceOf(biz)).toBe(2397 - Math.floor((2397 * 2000) / 2500));
  });
});
