import {
  finalAttemptStatuses,
  type FraudVerdict,
  type Payment,
  type PaymentAttempt,
  type PaymentStatus,
} from "@/db/schema";
import type { FraudSettings } from "@/lib/fraud/fraud-settings";
import { combineVerdicts, riskVerdict } from "@/lib/fraud/screen-payment";
import type { CardInfo, ProviderFailure } from "@/lib/providers/types";
import { cardPaymentDetails, completeCustomerDetails } from "./payment-records";

/** What the provider says about an attempt, in Kassa's terms. */
export type Settlement =
  /** Money taken: the whole amount (a card charge, a redirect payment paid in full). */
  | { kind: "charged"; providerPaymentId: string; card: CardInfo | null; riskLevel: string | null }
  | { kind: "requires_action"; providerPaymentId: string; challengeUrl: string }
  /** Accepted by the provider, no result yet. */
  | { kind: "processing"; providerPaymentId: string }
  /** Redirect method: waiting for the payer, maybe partly paid. */
  | { kind: "awaiting_payer"; providerPaymentId: string; amountReceived: number; redirectUrl?: string }
  | {
      kind: "failed";
      providerPaymentId: string | null;
      failure: ProviderFailure;
      blocked: boolean;
      card?: CardInfo | null;
    }
  /** Fraud screening declined it before any charge. */
  | { kind: "screened_out"; verdict: FraudVerdict };

/** Everything the decision reads, read under the session's lock by the apply step. */
export type SettleFacts = {
  attempt: PaymentAttempt;
  /** The session's payment (null before the first attempt wrote one). */
  payment: Payment | null;
  settlement: Settlement;
  /** Cents already refunded (or being refunded) as duplicates of the settlement's provider payment. */
  duplicateRefunded: number;
  fraudSettings: FraudSettings;
  /** Completion time, on the business's clock (a sandbox clock may be ahead of real time). */
  now: string;
};

/** What to do: nothing at all, or these changes in this order (settle-attempt.ts applies them). */
export type SettlePlan =
  | { kind: "ignore" }
  | {
      kind: "apply";
      /** False when nothing changes (the result then reports `changed: false`). */
      changed: boolean;
      attempt?: Partial<PaymentAttempt>;
      payment?: Partial<Payment>;
      /** A refund to reserve, against the payment as updated; `fraud_declined` re-reads the payment. */
      refund?: { amount: number; reason: "duplicate" | "fraud_declined" };
      /** succeeded: credit the business and announce; the others: one event. */
      outcome?:
        | { kind: "succeeded" }
        | { kind: "event"; type: "declined" | "pending_review" }
        | { kind: "incomplete"; amountRemaining: number };
      warn?: string;
    };

/** Statuses under which the session's money has been taken (or is held) by the current attempt. */
const paidStatuses: readonly PaymentStatus[] = ["succeeded", "pending_review", "declined"];

const unchanged: SettlePlan = { kind: "apply", changed: false };

/**
 * The pure decision of a settlement (no database): from the attempt, the session's payment and
 * what the provider said, the changes to make. A charge reported for an attempt that is no longer
 * current becomes the payment if the session is not paid yet, and is refunded as a duplicate
 * otherwise: the customer never pays twice. Final attempts only move when money turns out to have
 * been taken after all.
 */
export function decideSettlement(facts: SettleFacts): SettlePlan {
  const { attempt, settlement } = facts;
  const final = finalAttemptStatuses.includes(attempt.status);
  const moneyAfterAll =
    (settlement.kind === "charged" && (attempt.status === "failed" || attempt.status === "abandoned")) ||
    (settlement.kind === "awaiting_payer" && settlement.amountReceived > 0 && attempt.status === "abandoned");
  if (final && !moneyAfterAll) return { kind: "ignore" };
  switch (settlement.kind) {
    case "requires_action":
      if (attempt.status === "requires_action" && attempt.nextUrl === settlement.challengeUrl)
        return unchanged;
      return {
        kind: "apply",
        changed: true,
        attempt: {
          providerPaymentId: settlement.providerPaymentId,
          status: "requires_action",
          nextUrl: settlement.challengeUrl,
        },
      };
    case "processing":
      if (attempt.providerPaymentId === settlement.providerPaymentId) return unchanged;
      return { kind: "apply", changed: true, attempt: { providerPaymentId: settlement.providerPaymentId } };
    case "screened_out":
    case "failed":
      return decideFailure(facts, settlement);
    case "awaiting_payer":
      return decideAwaitingPayer(facts, settlement);
    case "charged":
      return decideCharge(facts, settlement);
  }
}

const providerIds = (id: string | null) => (id ? { providerPaymentId: id } : {});

function decideFailure(
  facts: SettleFacts,
  settlement: Extract<Settlement, { kind: "failed" | "screened_out" }>,
): SettlePlan {
  const { attempt, payment, now } = facts;
  const current = payment?.attemptId === attempt.id;
  const blocked = settlement.kind === "screened_out" || settlement.blocked;
  const failure =
    settlement.kind === "failed"
      ? settlement.failure
      : { code: "fraud_declined", message: "Declined by fraud screening", declineCode: null };
  const verdict =
    settlement.kind === "screened_out"
      ? settlement.verdict
      : combineVerdicts(
          attempt.fraud,
          blocked ? { decision: "decline", reasons: ["provider_blocked"] } : null,
        );
  const code = failure.declineCode ? `${failure.code}/${failure.declineCode}` : failure.code;
  const ids = providerIds(settlement.kind === "failed" ? settlement.providerPaymentId : null);
  const attemptSet: Partial<PaymentAttempt> = {
    ...ids,
    status: blocked ? "declined" : "failed",
    failureCode: code,
    failureMessage: failure.message,
    fraud: blocked ? verdict : attempt.fraud,
    completedAt: now,
  };
  if (!current || !payment) return { kind: "apply", changed: true, attempt: attemptSet };
  if (!blocked)
    return {
      kind: "apply",
      changed: true,
      attempt: attemptSet,
      payment: { ...ids, status: "failed", failureCode: code, failureMessage: failure.message },
    };
  return {
    kind: "apply",
    changed: true,
    attempt: attemptSet,
    payment: {
      ...ids,
      status: "declined",
      failureCode: code,
      failureMessage: failure.message,
      fraudDecision: "decline",
      fraudReasons: verdict.reasons,
      customerDetails: completeCustomerDetails(attempt.customerDetails),
      paymentDetails: attempt.paymentDetails,
      completedAt: now,
    },
    outcome: { kind: "event", type: "declined" },
  };
}

function decideAwaitingPayer(
  facts: SettleFacts,
  settlement: Extract<Settlement, { kind: "awaiting_payer" }>,
): SettlePlan {
  const { attempt, payment, now } = facts;
  const current = payment?.attemptId === attempt.id;
  const received = settlement.amountReceived;
  const ids = providerIds(settlement.providerPaymentId);
  const paidByOther =
    !current && payment && (paidStatuses.includes(payment.status) || (payment.amountReceived ?? 0) > 0);
  if (paidByOther || attempt.status === "abandoned") {
    // Money arrived on an abandoned redirect payment: refund what was not refunded yet.
    const owed = received - facts.duplicateRefunded;
    const refund = owed > 0 && payment ? { amount: owed, reason: "duplicate" as const } : undefined;
    return {
      kind: "apply",
      changed: owed > 0 || attempt.status !== "abandoned",
      ...(attempt.status === "abandoned"
        ? {}
        : { attempt: { ...ids, status: "abandoned", completedAt: now } }),
      ...(refund ? { refund } : {}),
    };
  }
  const attemptSet: Partial<PaymentAttempt> = {
    ...ids,
    status: "pending",
    ...(settlement.redirectUrl ? { nextUrl: settlement.redirectUrl } : {}),
  };
  if (!payment) return { kind: "apply", changed: true, attempt: attemptSet };
  const before = current ? (payment.amountReceived ?? 0) : 0;
  const pointed = current
    ? {}
    : {
        attemptId: attempt.id,
        amount: attempt.amount,
        paymentMethod: attempt.method,
        provider: attempt.provider,
      };
  return {
    kind: "apply",
    changed: true,
    attempt: attemptSet,
    payment: {
      ...pointed,
      ...ids,
      status: "pending",
      amountReceived: received > 0 ? received : current ? payment.amountReceived : null,
    },
    ...(received > before && received < attempt.amount
      ? { outcome: { kind: "incomplete" as const, amountRemaining: attempt.amount - received } }
      : {}),
  };
}

function decideCharge(facts: SettleFacts, settlement: Extract<Settlement, { kind: "charged" }>): SettlePlan {
  const { attempt, payment, now } = facts;
  if (!payment) throw new Error(`Session ${attempt.sessionId} has no payment for attempt ${attempt.id}`);
  const current = payment.attemptId === attempt.id;
  const ids = providerIds(settlement.providerPaymentId);
  const paidByOther =
    !current &&
    (paidStatuses.includes(payment.status) ||
      ((payment.amountReceived ?? 0) > 0 && payment.status === "pending"));
  if (paidByOther) return decideDuplicateCharge(facts, ids);
  const verdict = combineVerdicts(attempt.fraud, riskVerdict(facts.fraudSettings, settlement.riskLevel));
  const paymentDetails = settlement.card
    ? cardPaymentDetails(settlement.card)
    : (attempt.paymentDetails ?? { type: attempt.method });
  const status: PaymentStatus =
    verdict.decision === "allow"
      ? "succeeded"
      : verdict.decision === "review"
        ? "pending_review"
        : "declined";
  return {
    kind: "apply",
    changed: true,
    attempt: {
      ...ids,
      status: verdict.decision === "decline" ? "declined" : "succeeded",
      paymentDetails,
      riskLevel: settlement.riskLevel,
      fraud: verdict,
      failureCode: null,
      failureMessage: null,
      completedAt: now,
    },
    payment: chargedPayment(facts, { ids, status, paymentDetails, verdict, riskLevel: settlement.riskLevel }),
    ...chargeOutcome(status, attempt.amount),
  };
}

/** The session is already paid by another attempt: this charge is refunded as a duplicate. */
function decideDuplicateCharge(facts: SettleFacts, ids: { providerPaymentId?: string }): SettlePlan {
  const owed = facts.attempt.amount - facts.duplicateRefunded;
  return {
    kind: "apply",
    changed: true,
    attempt: {
      ...ids,
      status: "succeeded",
      failureMessage: "duplicate charge: refunded",
      completedAt: facts.now,
    },
    ...(owed > 0 ? { refund: { amount: owed, reason: "duplicate" as const } } : {}),
    warn: "duplicate charge refunded",
  };
}

/** The payment as the charged attempt makes it. */
function chargedPayment(
  { attempt, now }: SettleFacts,
  charge: {
    ids: { providerPaymentId?: string };
    status: PaymentStatus;
    paymentDetails: Payment["paymentDetails"];
    verdict: FraudVerdict;
    riskLevel: string | null;
  },
): Partial<Payment> {
  const { ids, status, paymentDetails, verdict, riskLevel } = charge;
  return {
    ...ids,
    attemptId: attempt.id,
    status,
    amount: attempt.amount,
    fees: attempt.fees,
    netAmount: attempt.netAmount,
    screeningFee: attempt.screeningFee,
    paymentMethod: attempt.method,
    provider: attempt.provider,
    providerCustomerId: attempt.providerCustomerId,
    customerDetails: completeCustomerDetails(attempt.customerDetails),
    paymentDetails,
    ip: attempt.ip,
    country: attempt.country,
    userAgent: attempt.userAgent,
    amountReceived: attempt.provider === "stripe" ? null : attempt.amount,
    riskLevel,
    fraudDecision: verdict.decision,
    fraudReasons: verdict.reasons,
    failureCode: null,
    failureMessage: null,
    completedAt: now,
  };
}

/** Succeeded: credit and announce; held for review: one event; declined: refund in full and announce. */
function chargeOutcome(
  status: PaymentStatus,
  amount: number,
): Pick<SettlePlan & { kind: "apply" }, "refund" | "outcome"> {
  if (status === "succeeded") return { outcome: { kind: "succeeded" } };
  if (status === "pending_review") return { outcome: { kind: "event", type: "pending_review" } };
  return {
    refund: { amount, reason: "fraud_declined" },
    outcome: { kind: "event", type: "declined" },
  };
}
