import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StripeEmulator, startStripeEmulator } from "../src/index";
import { advanceTestClock, customerWithSavedCard, days, newSecretKey, sdkFor } from "../src/test-support";

let emulator: StripeEmulator;
beforeAll(async () => {
  emulator = await startStripeEmulator();
});
afterAll(() => emulator.close());

async function setup() {
  const key = newSecretKey();
  const stripe = sdkFor(emulator, key);
  const saved = await customerWithSavedCard(stripe);
  const pay = async (number: string, amount = 10_000) => {
    const pm = await stripe.paymentMethods.create({
      type: "card",
      card: { number, exp_month: 12, exp_year: 2040, cvc: "123" },
    });
    return stripe.paymentIntents.create({
      amount,
      currency: "usd",
      customer: saved.customer.id,
      payment_method: pm.id,
      allowed_payment_method_types: ["card"],
      confirm: true,
    });
  };
  const disputeOf = async (intent: Stripe.PaymentIntent) =>
    (await stripe.disputes.list({ payment_intent: intent.id })).data[0] as Stripe.Dispute;
  const types = (disputeId: string) =>
    emulator
      .events(key)
      .filter((event) => event.type.startsWith("charge.dispute.") && event.data.object.id === disputeId)
      .map((event) => event.type);
  return { key, stripe, ...saved, pay, disputeOf, types };
}

async function failure(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (error) {
    return error as Stripe.errors.StripeError;
  }
  throw new Error("expected the request to fail");
}

describe("dispute test cards", () => {
  it.each([
    ["4000000000000259", "fraudulent", "needs_response"],
    ["4000000000002685", "product_not_received", "needs_response"],
    ["4000000000001976", "general", "warning_needs_response"],
  ])("%s opens a %s dispute (%s) right after the charge succeeds", async (number, reason, status) => {
    const { stripe, pay, disputeOf, types } = await setup();
    const intent = await pay(number);
    expect(intent.status).toBe("succeeded");
    const dispute = await disputeOf(intent);
    expect(dispute).toMatchObject({ reason, status, amount: 10_000, charge: intent.latest_charge });
    expect((await stripe.charges.retrieve(String(intent.latest_charge))).disputed).toBe(true);
    const inquiry = status.startsWith("warning_");
    expect(types(dispute.id)).toEqual(
      inquiry ? ["charge.dispute.created"] : ["charge.dispute.created", "charge.dispute.funds_withdrawn"],
    );
    expect(dispute.balance_transactions).toHaveLength(inquiry ? 0 : 1);
    if (!inquiry)
      expect(dispute.balance_transactions[0]).toMatchObject({
        amount: -10_000,
        fee: 1500,
        net: -11_500,
        type: "adjustment",
        reporting_category: "dispute",
      });
  });

  it("4000000000005423 succeeds with an early fraud warning and no dispute", async () => {
    const { key, stripe, pay, disputeOf } = await setup();
    const intent = await pay("4000000000005423");
    expect(await disputeOf(intent)).toBeUndefined();
    const warnings = await stripe.radar.earlyFraudWarnings.list({ payment_intent: intent.id });
    expect(warnings.data[0]).toMatchObject({ charge: intent.latest_charge, actionable: true });
    expect(emulator.events(key, "radar.early_fraud_warning.created")).toHaveLength(1);
  });
});

describe("evidence decides the outcome on the test clock", () => {
  it("winning_evidence: under review, then won, with the amount and the fee reinstated", async () => {
    const { stripe, clock, pay, disputeOf, types } = await setup();
    const dispute = await disputeOf(await pay("4000000000000259"));
    const updated = await stripe.disputes.update(dispute.id, {
      evidence: { uncategorized_text: "winning_evidence" },
    });
    expect(updated).toMatchObject({ status: "under_review", evidence_details: { submission_count: 1 } });
    await advanceTestClock(stripe, clock.id, clock.frozen_time + 3600);
    const won = await stripe.disputes.retrieve(dispute.id);
    expect(won.status).toBe("won");
    expect(won.balance_transactions.map((t) => [t.amount, t.fee, t.net])).toEqual([
      [-10_000, 1500, -11_500],
      [10_000, -1500, 11_500],
    ]);
    expect(types(dispute.id)).toEqual([
      "charge.dispute.created",
      "charge.dispute.funds_withdrawn",
      "charge.dispute.updated",
      "charge.dispute.funds_reinstated",
      "charge.dispute.closed",
    ]);
  });

  it("losing_evidence: lost, nothing comes back; staged evidence (submit false) decides nothing", async () => {
    const { stripe, clock, pay, disputeOf, types } = await setup();
    const dispute = await disputeOf(await pay("4000000000002685"));
    const staged = await stripe.disputes.update(dispute.id, {
      evidence: { uncategorized_text: "losing_evidence" },
      submit: false,
    });
    expect(staged).toMatchObject({ status: "needs_response", evidence_details: { has_evidence: true } });
    await stripe.disputes.update(dispute.id, { submit: true });
    await advanceTestClock(stripe, clock.id, clock.frozen_time + 3600);
    const lost = await stripe.disputes.retrieve(dispute.id);
    expect(lost.status).toBe("lost");
    expect(lost.balance_transactions).toHaveLength(1);
    expect(types(dispute.id).at(-1)).toBe("charge.dispute.closed");
    expect(await failure(stripe.disputes.update(dispute.id, { metadata: { a: "b" } }))).toMatchObject({
      statusCode: 400,
    });
  });

  it("no response by the due date: past due and lost", async () => {
    const { stripe, clock, pay, disputeOf } = await setup();
    const dispute = await disputeOf(await pay("4000000000000259"));
    expect(dispute.evidence_details.due_by).toBeGreaterThan(clock.frozen_time + days(6));
    await advanceTestClock(stripe, clock.id, clock.frozen_time + days(6));
    expect((await stripe.disputes.retrieve(dispute.id)).status).toBe("needs_response");
    await advanceTestClock(stripe, clock.id, (dispute.evidence_details.due_by ?? 0) + 60);
    const lost = await stripe.disputes.retrieve(dispute.id);
    expect(lost).toMatchObject({ status: "lost", evidence_details: { past_due: true } });
  });

  it("an inquiry won closes as warning_closed; lost, it becomes a chargeback and the funds are withdrawn", async () => {
    const { stripe, clock, pay, disputeOf, types } = await setup();
    const won = await disputeOf(await pay("4000000000001976"));
    await stripe.disputes.update(won.id, { evidence: { uncategorized_text: "winning_evidence" } });
    const lost = await disputeOf(await pay("4000000000001976"));
    await stripe.disputes.update(lost.id, { evidence: { uncategorized_text: "losing_evidence" } });
    expect((await stripe.disputes.retrieve(lost.id)).status).toBe("warning_under_review");
    await advanceTestClock(stripe, clock.id, clock.frozen_time + 3600);
    expect((await stripe.disputes.retrieve(won.id)).status).toBe("warning_closed");
    const escalated = await stripe.disputes.retrieve(lost.id);
    expect(escalated).toMatchObject({ status: "needs_response", is_charge_refundable: false });
    expect(types(lost.id)).toContain("charge.dispute.funds_withdrawn");
  });
});

describe("accepting, refunds, files", () => {
  it("close accepts the dispute: lost at once; closing again is refused", async () => {
    const { stripe, pay, disputeOf, types } = await setup();
    const dispute = await disputeOf(await pay("4000000000000259"));
    expect((await stripe.disputes.close(dispute.id)).status).toBe("lost");
    expect(types(dispute.id).at(-1)).toBe("charge.dispute.closed");
    expect(await failure(stripe.disputes.close(dispute.id))).toMatchObject({ statusCode: 400 });
  });

  it("a charged-back charge cannot be refunded; an inquiry's can", async () => {
    const { stripe, pay } = await setup();
    const chargedBack = await pay("4000000000000259");
    expect(await failure(stripe.refunds.create({ payment_intent: chargedBack.id }))).toMatchObject({
      code: "charge_disputed",
    });
    const inquiry = await pay("4000000000001976");
    expect((await stripe.refunds.create({ payment_intent: inquiry.id, amount: 100 })).status).toBe(
      "succeeded",
    );
  });

  it("the helper disputes what is left of a partially refunded charge", async () => {
    const { key, stripe, pay, disputeOf } = await setup();
    const intent = await pay("4242424242424242");
    await stripe.refunds.create({ payment_intent: intent.id, amount: 3000 });
    emulator.disputeCharge(key, String(intent.latest_charge));
    const dispute = await disputeOf(intent);
    expect(dispute).toMatchObject({ amount: 7000, status: "needs_response" });
    expect(() => emulator.disputeCharge(key, String(intent.latest_charge))).toThrow(/already disputed/);
  });

  it("a second submission, even sent at once with the first, is refused and changes nothing", async () => {
    const { stripe, pay, disputeOf } = await setup();
    const dispute = await disputeOf(await pay("4000000000000259"));
    const submit = (text: string) =>
      stripe.disputes.update(dispute.id, { evidence: { uncategorized_text: text }, submit: true });
    const [first, second] = await Promise.allSettled([submit("first"), submit("second")]);
    expect(first).toMatchObject({ status: "fulfilled", value: { status: "under_review" } });
    expect(second).toMatchObject({ status: "rejected", reason: { statusCode: 400, param: "submit" } });
    const now = await stripe.disputes.retrieve(dispute.id);
    expect(now.evidence.uncategorized_text).toBe("first");
    expect(now.evidence_details.submission_count).toBe(1);
  });

  it("evidence over the combined limit is refused and changes nothing", async () => {
    const { stripe, pay, disputeOf } = await setup();
    const dispute = await disputeOf(await pay("4000000000000259"));
    await stripe.disputes.update(dispute.id, { evidence: { product_description: "kept" }, submit: false });
    const error = await failure(
      stripe.disputes.update(dispute.id, {
        evidence: { product_description: "x".repeat(20_000), uncategorized_text: "y".repeat(140_000) },
        submit: false,
      }),
    );
    expect(error).toMatchObject({ statusCode: 400, param: "evidence" });
    expect((await stripe.disputes.retrieve(dispute.id)).evidence).toMatchObject({
      product_description: "kept",
      uncategorized_text: null,
    });
  });

  it("evidence naming a file that was never uploaded is refused and changes nothing", async () => {
    const { stripe, pay, disputeOf } = await setup();
    const dispute = await disputeOf(await pay("4000000000000259"));
    const error = await failure(
      stripe.disputes.update(dispute.id, { evidence: { receipt: "file_missing" } }),
    );
    expect(error).toMatchObject({ statusCode: 400, param: "evidence[receipt]" });
    expect((await stripe.disputes.retrieve(dispute.id)).status).toBe("needs_response");
    const text = await failure(
      stripe.files.create({
        purpose: "dispute_evidence",
        file: { data: Buffer.from("x"), name: "a.txt", type: "text/plain" },
      }),
    );
    expect(text).toMatchObject({ statusCode: 400, param: "file" });
  });
});

describe("the account's own clock (a sandbox's clock advanced)", () => {
  it("runs clockless disputes' work due in the window, then dates what comes after on the moved clock", async () => {
    const key = newSecretKey();
    const stripe = sdkFor(emulator, key);
    const payClockless = async () => {
      const intent = await stripe.paymentIntents.create({
        amount: 5000,
        currency: "usd",
        payment_method: "pm_card_createDispute",
        allowed_payment_method_types: ["card"],
        confirm: true,
      });
      return (await stripe.disputes.list({ payment_intent: intent.id })).data[0] as Stripe.Dispute;
    };
    const advance = async (seconds: number) => {
      const response = await fetch(`${emulator.url}/_emulator/disputes/advance`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ seconds }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { ran: number }).ran;
    };
    const before = await payClockless();
    expect(await advance(days(31))).toBeGreaterThan(0);
    expect(await stripe.disputes.retrieve(before.id)).toMatchObject({
      status: "lost",
      evidence_details: { past_due: true },
    });

    const now = Math.floor(Date.now() / 1000) + days(31);
    const after = await payClockless();
    expect(Math.abs(after.created - now)).toBeLessThan(600);
    expect(after.evidence_details.due_by).toBeGreaterThan(now + days(6));
    expect(after.evidence_details.due_by).toBeLessThan(now + days(8));
    expect((await stripe.charges.retrieve(String(after.charge))).created).toBe(after.created);
    await advance(days(6));
    expect((await stripe.disputes.retrieve(after.id)).status).toBe("needs_response");
    await advance(days(2));
    expect(await stripe.disputes.retrieve(after.id)).toMatchObject({
      status: "lost",
      evidence_details: { past_due: true },
    });
  });
});
