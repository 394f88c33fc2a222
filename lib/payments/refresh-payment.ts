import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, paymentAttempts, type PaymentAttempt } from "@/db/schema";
import { cardProviderFor, redirectProviderFor } from "@/lib/providers/provider-for";
import type { ChargeOutcome, RedirectPaymentState } from "@/lib/providers/types";
import { getPayment, type PaymentView } from "./get-payment";
import { findAttempt } from "./payment-records";
import { settleAttempt, type Settlement, type SettleResult } from "./settle-attempt";

/** A card provider's answer as a settlement. */
export function chargeSettlement(outcome: ChargeOutcome): Settlement {
  switch (outcome.status) {
    case "succeeded":
      return {
        kind: "charged",
        providerPaymentId: outcome.providerPaymentId,
        card: outcome.card,
        riskLevel: outcome.riskLevel,
      };
    case "requires_action":
      return {
        kind: "requires_action",
        providerPaymentId: outcome.providerPaymentId,
        challengeUrl: outcome.challengeUrl,
      };
    case "processing":
      return { kind: "processing", providerPaymentId: outcome.providerPaymentId };
    case "failed":
      return {
        kind: "failed",
        providerPaymentId: outcome.providerPaymentId,
        failure: outcome.failure,
        blocked: outcome.blocked,
        card: outcome.card,
      };
  }
}

/** A redirect provider's state as a settlement. */
export function redirectSettlement(state: RedirectPaymentState): Settlement {
  if (state.status === "paid")
    return { kind: "charged", providerPaymentId: state.providerPaymentId, card: null, riskLevel: null };
  if (state.status === "failed")
    return {
      kind: "failed",
      providerPaymentId: state.providerPaymentId,
      failure: { code: "payment_failed", message: "The payment failed at the provider" },
      blocked: false,
    };
  return {
    kind: "awaiting_payer",
    providerPaymentId: state.providerPaymentId,
    amountReceived: state.amountReceived,
  };
}

/**
 * Re-reads one attempt at its provider (outside any transaction) and records what it says. Used
 * after a 3-D Secure challenge, by inbound provider events, and to settle attempts left open.
 */
export async function refreshAttempt(
  db: Db,
  attemptOrId: string | PaymentAttempt,
  /** The provider's id when the attempt does not know it yet (an event that beat the API's answer). */
  knownProviderPaymentId?: string,
): Promise<SettleResult | null> {
  const attempt = typeof attemptOrId === "string" ? await findAttempt(db, attemptOrId) : attemptOrId;
  const providerPaymentId = attempt?.providerPaymentId ?? knownProviderPaymentId;
  if (!attempt || !providerPaymentId) return null;
  const [business] = await db.select().from(businesses).where(eq(businesses.id, attempt.businessId)).limit(1);
  if (!business) return null;
  if (attempt.provider === "stripe") {
    const provider = await cardProviderFor(db, business, attempt.provider);
    return settleAttempt(db, attempt, chargeSettlement(await provider.retrieveCharge(providerPaymentId)));
  }
  const provider = await redirectProviderFor(db, business, attempt.provider);
  return settleAttempt(db, attempt, redirectSettlement(await provider.retrievePayment(providerPaymentId)));
}

/**
 * Re-reads the session's open attempts (a challenge, a redirect payment, a charge in progress) at
 * their providers and answers the Payment object: what the 3-D Secure return page and the hosted
 * page's "check again" use. Idempotent.
 */
export async function refreshPayment(db: Db, businessId: string, sessionId: string): Promise<PaymentView> {
  const open = await db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.sessionId, sessionId),
        eq(paymentAttempts.businessId, businessId),
        inArray(paymentAttempts.status, ["started", "requires_action", "pending"]),
      ),
    )
    .orderBy(desc(paymentAttempts.id))
    .limit(5);
  for (const attempt of open) await refreshAttempt(db, attempt);
  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId)).limit(1);
  return getPayment(db, business!, sessionId);
}
