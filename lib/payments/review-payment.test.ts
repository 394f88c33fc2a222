import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailMessages } from "@/db/schema";
import { createUser } from "@/lib/staff/create-user";
import { updateFraudSettings } from "@/lib/fraud/fraud-settings";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { sandboxStripeKey } from "@/lib/providers/stripe/sandbox-emulator";
import { sdkFor } from "@kassa/stripe-emulator/testing";
import { testDb, uniqueName } from "@/test/helpers";
import { acceptReviewedPayment, declineReviewedPayment } from "./review-payment";
import {
  balanceOf,
  eventBodies,
  eventTypes,
  helperPay,
  newSession,
  paymentRow,
  paymentsBusiness,
  readPayment,
  refundsOf,
  withSandboxProviders,
} from "./testing/payment-fixtures";

const providers = withSandboxProviders();
verifyLedgerAfterEach();

const stripeOf = (businessId: string) => sdkFor(providers.current().emulator, sandboxStripeKey(businessId));

describe("payments held for review (Stripe risk_level elevated: 4000000000009235)", () => {
  it("are charged but not credited; accepting credits the net and sends `succeeded`", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    const held = await helperPay(biz, session_id, { card_number: "4000000000009235" });
    expect(held.body).toMatchObject({ status: "pending_review", amount: 2500, fees: 103, net_amount: 2397 });
    expect((await paymentRow(session_id))!).toMatchObject({
      riskLevel: "elevated",
      fraudDecision: "review",
      fraudReasons: ["risk_elevated"],
    });
    expect(await balanceOf(biz)).toBe(0);
    expect(await eventTypes(session_id)).toEqual(["pending_review"]);
    expect((await helperPay(biz, session_id)).status).toBe(409);

    const accepted = await acceptReviewedPayment(testDb(), biz.business.id, session_id);
    expect(accepted).toMatchObject({ status: "succeeded", net_amount: 2397 });
    expect(await balanceOf(biz)).toBe(2397);
    expect(await eventTypes(session_id)).toEqual(["pending_review", "succeeded"]);
    await expect(acceptReviewedPayment(testDb(), biz.business.id, session_id)).rejects.toMatchObject({
      code: "payment_not_in_review",
    });
  });

  it("tells the business's owners by e-mail, in the transaction that holds the payment", async () => {
    const biz = await paymentsBusiness();
    const owner = `${uniqueName("review-owner")}@example.com`;
    await createUser(testDb(), { email: owner, password: "an owner password", businessId: biz.business.id, role: "owner" });
    const { session_id } = await newSession(biz);
    expect((await helperPay(biz, session_id, { card_number: "4000000000009235" })).body).toMatchObject({ status: "pending_review" });
    const notices = await testDb().select().from(mailMessages).where(and(eq(mailMessages.businessId, biz.business.id), eq(mailMessages.kind, "owner_notice")));
    expect(notices.map((n) => [n.toAddress, n.subject])).toEqual([[owner, "A payment of $25.00 is waiting for your review"]]);
    expect(notices[0]!.textBody).toContain(`/dashboard/payments/${session_id}`);
  });

  it("declining refunds the customer at the provider and sends `declined`", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    await helperPay(biz, session_id, { card_number: "4000000000009235" });
    const declined = await declineReviewedPayment(testDb(), biz.business.id, session_id);
    expect(declined.status).toBe("declined");
    expect(await eventTypes(session_id)).toEqual(["pending_review", "declined"]);
    expect((await refundsOf(session_id)).map((r) => [r.reason, r.status, r.amount, r.ledgerAmount])).toEqual([
      ["review_declined", "succeeded", 2500, 0],
    ]);
    const payment = (await paymentRow(session_id))!;
    expect(payment.refundedAmount).toBe(2500);
    const refunds = await stripeOf(biz.business.id).refunds.list({
      payment_intent: payment.providerPaymentId!,
    });
    expect(refunds.data.map((r) => [r.amount, r.status])).toEqual([[2500, "succeeded"]]);
    expect(await balanceOf(biz)).toBe(0);
    await expect(declineReviewedPayment(testDb(), biz.business.id, session_id)).rejects.toMatchObject({
      code: "payment_not_in_review",
    });
  });

  it("another business cannot review it", async () => {
    const biz = await paymentsBusiness();
    const other = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    await helperPay(biz, session_id, { card_number: "4000000000009235" });
    await expect(acceptReviewedPayment(testDb(), other.business.id, session_id)).rejects.toMatchObject({
      code: "payment_not_found",
    });
  });
});

describe("the sandbox's success card", () => {
  it("keeps succeeding however often it is used when the business set no velocity limit", async () => {
    const biz = await paymentsBusiness();
    const statuses: string[] = [];
    for (let i = 0; i < 30; i++) {
      const { session_id } = await newSession(biz);
      statuses.push(
        String((await helperPay(biz, session_id, { card_number: "4242424242424242" })).body.status),
      );
    }
    expect(statuses).toEqual(Array<string>(30).fill("succeeded"));
    // The dedicated cards still give their outcomes on that same business.
    const review = await newSession(biz);
    expect((await helperPay(biz, review.session_id, { card_number: "4000000000009235" })).body.status).toBe(
      "pending_review",
    );
    const fraud = await newSession(biz);
    expect((await helperPay(biz, fraud.session_id, { card_number: "4100000000000019" })).body.status).toBe(
      "declined",
    );
  }, 120_000);

  it("is held, then declined, once the business sets the card's velocity limit", async () => {
    const biz = await paymentsBusiness();
    for (let i = 0; i < 6; i++) {
      const { session_id } = await newSession(biz);
      await helperPay(biz, session_id);
    }
    // Setting the default value explicitly turns the rule on; the six attempts above count.
    await updateFraudSettings(testDb(), biz.business.id, { maxAttemptsPerCard: 5 });
    const held = await newSession(biz);
    expect((await helperPay(biz, held.session_id)).body.status).toBe("pending_review");
    expect((await paymentRow(held.session_id))!.fraudReasons).toEqual(["card_velocity"]);
    for (let i = 0; i < 3; i++) {
      const { session_id } = await newSession(biz);
      await helperPay(biz, session_id);
    }
    const declined = await newSession(biz);
    expect((await helperPay(biz, declined.session_id)).body.status).toBe("declined");
  }, 60_000);
});

describe("fraud rules", () => {
  it("holds a payment above the business's review amount, and declines above its decline amount (never charged)", async () => {
    const biz = await paymentsBusiness();
    await updateFraudSettings(testDb(), biz.business.id, {
      reviewAmountCents: 2000,
      declineAmountCents: 5000,
    });
    const small = await newSession(biz, { amount: 1500, items: [{ name: "A", quantity: 1, price: 1500 }] });
    expect((await helperPay(biz, small.session_id)).body.status).toBe("succeeded");
    const medium = await newSession(biz);
    expect((await helperPay(biz, medium.session_id)).body.status).toBe("pending_review");
    expect((await paymentRow(medium.session_id))!.fraudReasons).toEqual(["amount_over_review_limit"]);
    const large = await newSession(biz, { amount: 6000, items: [{ name: "B", quantity: 1, price: 6000 }] });
    const declined = await helperPay(biz, large.session_id);
    expect(declined.body).toMatchObject({ status: "declined" });
    expect(await eventTypes(large.session_id)).toEqual(["declined"]);
    expect(await refundsOf(large.session_id)).toEqual([]);
    const intents = await stripeOf(biz.business.id).paymentIntents.list({ limit: 100 });
    expect(intents.data.filter((i) => i.metadata.kassa_session_id === large.session_id)).toEqual([]);
  });

  it("holds, then declines, a card used too often (velocity per card fingerprint)", async () => {
    const biz = await paymentsBusiness();
    await updateFraudSettings(testDb(), biz.business.id, { maxAttemptsPerCard: 2, maxAttemptsPerIp: 100 });
    const statuses: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { session_id } = await newSession(biz);
      statuses.push(String((await helperPay(biz, session_id)).body.status));
    }
    expect(statuses).toEqual(["succeeded", "succeeded", "pending_review", "pending_review", "declined"]);
  });

  it("counts attempts per IP and per e-mail too", async () => {
    const biz = await paymentsBusiness();
    await updateFraudSettings(testDb(), biz.business.id, { maxAttemptsPerIp: 1, maxAttemptsPerEmail: 100 });
    const first = await newSession(biz);
    const second = await newSession(biz);
    expect((await helperPay(biz, first.session_id, { ip: "198.51.100.20" })).body.status).toBe("succeeded");
    expect(
      (await helperPay(biz, second.session_id, { ip: "198.51.100.20", card_number: "5555555555554444" })).body
        .status,
    ).toBe("pending_review");
    expect((await paymentRow(second.session_id))!.fraudReasons).toEqual(["ip_velocity"]);

    await updateFraudSettings(testDb(), biz.business.id, { maxAttemptsPerIp: 100, maxAttemptsPerEmail: 1 });
    const third = await newSession(biz);
    const fourth = await newSession(biz);
    const details = { customer_details: { email: "Same@Example.com" } };
    expect(
      (await helperPay(biz, third.session_id, { ...details, card_number: "4000056655665556" })).body.status,
    ).toBe("succeeded");
    expect(
      (
        await helperPay(biz, fourth.session_id, {
          customer_details: { email: "same@example.com" },
          card_number: "5200828282828210",
        })
      ).body.status,
    ).toBe("pending_review");
    expect((await paymentRow(fourth.session_id))!.fraudReasons).toEqual(["email_velocity"]);
  });

  it("reviews a card from another country than the IP when the business asks for it", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz);
    // Default: a mismatch alone is allowed.
    expect((await helperPay(biz, session_id, { ip: "81.2.69.142" })).body.status).toBe("succeeded");
    await updateFraudSettings(testDb(), biz.business.id, { countryMismatch: "review" });
    const next = await newSession(biz);
    const held = await helperPay(biz, next.session_id, {
      ip: "81.2.69.142",
      card_number: "5555555555554444",
    });
    expect(held.body).toMatchObject({
      status: "pending_review",
      country: "GB",
      payment_details: { card: { country: "US" } },
    });
    expect((await paymentRow(next.session_id))!.fraudReasons).toEqual(["country_mismatch"]);
    // A Brazilian card from a Brazilian IP is fine.
    const br = await newSession(biz);
    expect(
      (await helperPay(biz, br.session_id, { ip: "200.160.2.3", card_number: "4000000760000002" })).body,
    ).toMatchObject({
      status: "succeeded",
      country: "BR",
    });
  });

  it("adds the one-time screening fee to what the customer pays, as a fee", async () => {
    const biz = await paymentsBusiness();
    await updateFraudSettings(testDb(), biz.business.id, { screeningFeeCents: 50 });
    const { session_id } = await newSession(biz);
    const paid = await helperPay(biz, session_id);
    expect(paid.body).toMatchObject({ status: "succeeded", amount: 2550, fees: 153, net_amount: 2397 });
    expect((await eventBodies(session_id))[0]).toMatchObject({ amount: 2550, fees: 153 });
    expect(await balanceOf(biz)).toBe(2397);
    expect((await readPayment(biz, session_id)).amount).toBe(2550);
    // Screening off: no fee and every rule off.
    await updateFraudSettings(testDb(), biz.business.id, { enabled: false });
    const next = await newSession(biz);
    expect((await helperPay(biz, next.session_id, { card_number: "4000000000009235" })).body).toMatchObject({
      status: "succeeded",
      amount: 2500,
    });
  });

  it("validates settings", async () => {
    const biz = await paymentsBusiness();
    await expect(
      updateFraudSettings(testDb(), biz.business.id, {
        maxAttemptsPerCard: 0,
        screeningFeeCents: -1,
      } as never),
    ).rejects.toMatchObject({ code: "validation_failed" });
    await expect(
      updateFraudSettings(testDb(), biz.business.id, { nope: true } as never),
    ).rejects.toMatchObject({
      code: "validation_failed",
    });
  });
});
