import { describe, expect, it } from "vitest";
import type { Payment, PaymentAttempt } from "@/db/schema";
import { defaultFraudSettings } from "@/lib/fraud/fraud-settings";
import { decideSettlement, type SettleFacts, type Settlement, type SettlePlan } from "./settle-decision";

// The settlement decision, table-driven and without a database: what each provider answer does to
// an attempt and its session's payment.

const now = "2026-01-01 00:00:00.000000+00";

function attempt(over: Partial<PaymentAttempt> = {}): PaymentAttempt {
  return {
    id: "pa_1",
    sessionId: "cs_1",
    businessId: "biz_1",
    paymentId: "pay_1",
    provider: "stripe",
    method: "credit",
    status: "started",
    amount: 1000,
    fees: 59,
    netAmount: 941,
    screeningFee: 0,
    providerPaymentId: null,
    providerCustomerId: null,
    nextUrl: null,
    fraud: { decision: "allow", reasons: [] },
    paymentDetails: null,
    customerDetails: null,
    ip: null,
    country: null,
    userAgent: null,
    ...over,
  } as PaymentAttempt;
}

function payment(over: Partial<Payment> = {}): Payment {
  return {
    id: "pay_1",
    sessionId: "cs_1",
    businessId: "biz_1",
    attemptId: "pa_1",
    status: "processing",
    amount: 1000,
    amountReceived: null,
    refundedAmount: 0,
    ...over,
  } as Payment;
}

const charged = (riskLevel: string | null = "normal"): Settlement => ({
  kind: "charged",
  providerPaymentId: "pi_1",
  card: null,
  riskLevel,
});
const failed = (blocked = false): Settlement => ({
  kind: "failed",
  providerPaymentId: "pi_1",
  failure: { code: "card_declined", message: "Declined", declineCode: "generic_decline" },
  blocked,
});
const awaiting = (amountReceived: number): Settlement => ({
  kind: "awaiting_payer",
  providerPaymentId: "sbx_1",
  amountReceived,
  redirectUrl: "https://pay.example/1",
});

function decide(over: Partial<SettleFacts> & { settlement: Settlement }): SettlePlan {
  return decideSettlement({
    attempt: attempt(),
    payment: payment(),
    duplicateRefunded: 0,
    fraudSettings: defaultFraudSettings,
    now,
    ...over,
  });
}

type Row = {
  name: string;
  facts: Partial<SettleFacts> & { settlement: Settlement };
  expect: {
    kind?: "ignore";
    changed?: boolean;
    attemptStatus?: string;
    paymentStatus?: string | null;
    refund?: { amount: number; reason: string } | null;
    outcome?: string | null;
  };
};

const rows: Row[] = [
  {
    name: "a charge of the current attempt succeeds and credits",
    facts: { settlement: charged() },
    expect: {
      changed: true,
      attemptStatus: "succeeded",
      paymentStatus: "succeeded",
      refund: null,
      outcome: "succeeded",
    },
  },
  {
    name: "an elevated risk charge is held for review",
    facts: { settlement: charged("elevated") },
    expect: {
      attemptStatus: "succeeded",
      paymentStatus: "pending_review",
      refund: null,
      outcome: "pending_review",
    },
  },
  {
    name: "a highest risk charge is declined and refunded in full",
    facts: { settlement: charged("highest") },
    expect: {
      attemptStatus: "declined",
      paymentStatus: "declined",
      refund: { amount: 1000, reason: "fraud_declined" },
      outcome: "declined",
    },
  },
  {
    name: "a charge of a stale attempt when the session is paid is a duplicate, refunded",
    facts: { settlement: charged(), payment: payment({ attemptId: "pa_2", status: "succeeded" }) },
    expect: {
      changed: true,
      attemptStatus: "succeeded",
      paymentStatus: null,
      refund: { amount: 1000, reason: "duplicate" },
    },
  },
  {
    name: "a duplicate already refunded in full is not refunded twice",
    facts: {
      settlement: charged(),
      payment: payment({ attemptId: "pa_2", status: "succeeded" }),
      duplicateRefunded: 1000,
    },
    expect: { attemptStatus: "succeeded", paymentStatus: null, refund: null },
  },
  {
    name: "a charge of a stale attempt of an unpaid session becomes the payment",
    facts: { settlement: charged(), payment: payment({ attemptId: "pa_2", status: "failed" }) },
    expect: { attemptStatus: "succeeded", paymentStatus: "succeeded", refund: null, outcome: "succeeded" },
  },
  {
    name: "a charge after the attempt failed still counts (money taken after all)",
    facts: { settlement: charged(), attempt: attempt({ status: "failed" }) },
    expect: { attemptStatus: "succeeded", paymentStatus: "succeeded", outcome: "succeeded" },
  },
  {
    name: "a final attempt ignores anything but money",
    facts: { settlement: failed(), attempt: attempt({ status: "succeeded" }) },
    expect: { kind: "ignore" },
  },
  {
    name: "a refusal fails the attempt and the payment, no event",
    facts: { settlement: failed() },
    expect: { attemptStatus: "failed", paymentStatus: "failed", refund: null, outcome: null },
  },
  {
    name: "a refusal the provider blocked declines, with the event",
    facts: { settlement: failed(true) },
    expect: { attemptStatus: "declined", paymentStatus: "declined", outcome: "declined" },
  },
  {
    name: "a refusal of a stale attempt leaves the payment alone",
    facts: { settlement: failed(), payment: payment({ attemptId: "pa_2" }) },
    expect: { attemptStatus: "failed", paymentStatus: null },
  },
  {
    name: "screening out declines before any charge",
    facts: {
      settlement: { kind: "screened_out", verdict: { decision: "decline", reasons: ["velocity_card"] } },
    },
    expect: { attemptStatus: "declined", paymentStatus: "declined", outcome: "declined" },
  },
  {
    name: "a challenge moves the attempt only",
    facts: {
      settlement: { kind: "requires_action", providerPaymentId: "pi_1", challengeUrl: "https://c/1" },
    },
    expect: { changed: true, attemptStatus: "requires_action", paymentStatus: null },
  },
  {
    name: "the same challenge again changes nothing",
    facts: {
      settlement: { kind: "requires_action", providerPaymentId: "pi_1", challengeUrl: "https://c/1" },
      attempt: attempt({ status: "requires_action", nextUrl: "https://c/1" }),
    },
    expect: { changed: false, attemptStatus: undefined, paymentStatus: null },
  },
  {
    name: "processing with a known provider id changes nothing",
    facts: {
      settlement: { kind: "processing", providerPaymentId: "pi_1" },
      attempt: attempt({ providerPaymentId: "pi_1" }),
    },
    expect: { changed: false, paymentStatus: null },
  },
  {
    name: "a started redirect payment waits for the payer",
    facts: { settlement: awaiting(0) },
    expect: { attemptStatus: "pending", paymentStatus: "pending", outcome: null },
  },
  {
    name: "an underpayment sends incomplete with what is missing",
    facts: { settlement: awaiting(400) },
    expect: { attemptStatus: "pending", paymentStatus: "pending", outcome: "incomplete:600" },
  },
  {
    name: "no more money than already known: no new incomplete",
    facts: { settlement: awaiting(400), payment: payment({ status: "pending", amountReceived: 400 }) },
    expect: { paymentStatus: "pending", outcome: null },
  },
  {
    name: "money on an abandoned redirect payment is refunded as a duplicate",
    facts: { settlement: awaiting(300), attempt: attempt({ status: "abandoned", provider: "sandbox" }) },
    expect: {
      changed: true,
      attemptStatus: undefined,
      paymentStatus: null,
      refund: { amount: 300, reason: "duplicate" },
    },
  },
  {
    name: "an abandoned redirect payment already refunded changes nothing",
    facts: {
      settlement: awaiting(300),
      attempt: attempt({ status: "abandoned", provider: "sandbox" }),
      duplicateRefunded: 300,
    },
    expect: { changed: false, refund: null },
  },
];

describe("decideSettlement", () => {
  it.each(rows)("$name", ({ facts, expect: want }) => {
    const plan = decide(facts);
    if (want.kind === "ignore") {
      expect(plan.kind).toBe("ignore");
      return;
    }
    if (plan.kind !== "apply") throw new Error("expected a plan to apply");
    if (want.changed !== undefined) expect(plan.changed).toBe(want.changed);
    if ("attemptStatus" in want) expect(plan.attempt?.status).toBe(want.attemptStatus);
    if (want.paymentStatus !== undefined) expect(plan.payment?.status ?? null).toBe(want.paymentStatus);
    if (want.refund !== undefined) expect(plan.refund ?? null).toEqual(want.refund);
    if (want.outcome !== undefined) {
      const o = plan.outcome;
      const got = !o
        ? null
        : o.kind === "succeeded"
          ? "succeeded"
          : o.kind === "event"
            ? o.type
            : `incomplete:${o.amountRemaining}`;
      expect(got).toBe(want.outcome);
    }
  });

  it("stamps completion with the given (business) time", () => {
    const plan = decide({ settlement: charged() });
    expect(plan.kind === "apply" && plan.payment?.completedAt).toBe(now);
    expect(plan.kind === "apply" && plan.attempt?.completedAt).toBe(now);
  });

  it("refuses a charge for a session without a payment", () => {
    expect(() => decide({ settlement: charged(), payment: null })).toThrow(/has no payment/);
  });
});
