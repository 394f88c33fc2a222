import type Stripe from "stripe";
import type { CardBehavior } from "../cards";
import type { CardInternals, Ctx } from "../state";

/** Radar's risk score for each level (Stripe: normal < 65 ≤ elevated < 75 ≤ highest). */
const riskScores = { normal: 21, elevated: 67, highest: 91 } as const;

/** What the issuer (or Radar) answers for one charge attempt. */
export type Decision =
  | { kind: "approve"; risk: "normal" | "elevated"; threeDSecure: boolean }
  | { kind: "decline"; code: string; declineCode: string; message: string; blocked: boolean }
  | { kind: "authenticate" };

export const authenticationRequired = {
  kind: "decline",
  code: "authentication_required",
  declineCode: "authentication_required",
  message: "Your card was declined. This transaction requires authentication.",
  blocked: false,
} as const;

export function decide(
  behavior: CardBehavior,
  card: CardInternals,
  { offSession, authenticated }: { offSession: boolean; authenticated: boolean },
): Decision {
  switch (behavior.kind) {
    case "succeed":
      return { kind: "approve", risk: behavior.risk, threeDSecure: false };
    case "decline":
      return {
        kind: "decline",
        code: behavior.code,
        declineCode: behavior.declineCode,
        message: behavior.message,
        blocked: false,
      };
    case "charge_customer_fail":
      return {
        kind: "decline",
        code: "card_declined",
        declineCode: "generic_decline",
        message: "Your card was declined.",
        blocked: false,
      };
    case "blocked":
      return {
        kind: "decline",
        code: "card_declined",
        declineCode: "fraudulent",
        message: "Your card was declined.",
        blocked: true,
      };
    case "authenticate":
      if (authenticated) return { kind: "approve", risk: "normal", threeDSecure: true };
      if (behavior.unlessSetUp && offSession && card.setUpForOffSession) {
        return { kind: "approve", risk: "normal", threeDSecure: false };
      }
      return { kind: "authenticate" };
  }
}

/**
 * What a charge to this payment method would do, without doing it: for `error_if_incomplete`
 * subscriptions, which Stripe does not create at all when their first payment fails.
 */
export function predictCharge(
  ctx: Ctx,
  paymentMethodId: string,
  { offSession }: { offSession: boolean },
): { ok: true } | { ok: false; code: string; declineCode: string; message: string } {
  const card = ctx.account.cards.get(paymentMethodId);
  if (!card) return { ok: true };
  const decision = decide(card.behavior, card, { offSession, authenticated: false });
  if (decision.kind === "approve") return { ok: true };
  if (decision.kind === "authenticate") return { ok: false, ...authenticationRequired };
  return { ok: false, code: decision.code, declineCode: decision.declineCode, message: decision.message };
}

export function outcomeFor(decision: Decision): Stripe.Charge.Outcome {
  const base = { advice_code: null, network_advice_code: null, network_decline_code: null };
  if (decision.kind === "approve") {
    return {
      ...base,
      network_status: "approved_by_network",
      reason: decision.risk === "elevated" ? "elevated_risk_level" : null,
      risk_level: decision.risk,
      risk_score: riskScores[decision.risk],
      seller_message: "Payment complete.",
      type: "authorized",
    };
  }
  if (decision.kind === "decline" && decision.blocked) {
    return {
      ...base,
      network_status: "not_sent_to_network",
      reason: "highest_risk_level",
      risk_level: "highest",
      risk_score: riskScores.highest,
      seller_message: "Stripe blocked this payment as too risky.",
      type: "blocked",
    };
  }
  const declineCode = decision.kind === "decline" ? decision.declineCode : "authentication_required";
  return {
    ...base,
    advice_code: declineCode === "insufficient_funds" ? "try_again_later" : "do_not_try_again",
    network_decline_code: "05",
    network_status: "declined_by_network",
    reason: declineCode,
    risk_level: "normal",
    risk_score: riskScores.normal,
    seller_message:
      declineCode === "generic_decline"
        ? "The bank did not return any further details with this decline."
        : `The bank returned the decline code \`${declineCode}\`.`,
    type: "issuer_declined",
  };
}
