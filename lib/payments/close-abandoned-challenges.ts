import { and, asc, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, paymentAttempts, type PaymentAttempt } from "@/db/schema";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { cardProviderFor } from "@/lib/providers/provider-for";
import { chargeSettlement } from "./refresh-payment";
import { settleAttempt, type Settlement } from "./settle-attempt";

/**
 * Abandoned 3-D Secure challenges (docs/payments.md, decision 0025): a payer who walks away from
 * the challenge leaves the attempt `requires_action` (its payment `processing`) with nothing to
 * settle it. Past AUTHENTICATION_TIMEOUT_MINUTES the provider is asked first (a completed
 * challenge whose event is late is recorded as what it is); an attempt still waiting is failed
 * with `authentication_abandoned` through settleAttempt (one `failed` event, the session payable
 * again), and only then is the intent canceled at the provider, so the provider's own
 * `canceled` event finds the attempt final and changes nothing. A payer who completes the
 * challenge in between is not lost: the cancel is refused, and the charge settles as money
 * taken after all (the payment, or a duplicate refunded).
 */

const abandonedFailure = (providerPaymentId: string): Settlement => ({
  kind: "failed",
  providerPaymentId,
  failure: {
    code: "authentication_abandoned",
    message: "The customer did not complete 3-D Secure authentication in time: nothing was charged",
  },
  blocked: false,
});

/** Card attempts waiting for the payer's authentication since longer than the window, oldest first. */
export async function findAbandonedChallenges(
  db: Db,
  options: { timeoutMs?: number; limit?: number } = {},
): Promise<PaymentAttempt[]> {
  const timeoutMs = options.timeoutMs ?? env().AUTHENTICATION_TIMEOUT_MINUTES * 60_000;
  return db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.status, "requires_action"),
        eq(paymentAttempts.provider, "stripe"),
        isNotNull(paymentAttempts.providerPaymentId),
        lt(paymentAttempts.updatedAt, sql`now() - ${timeoutMs}::float8 * interval '1 millisecond'`),
      ),
    )
    .orderBy(asc(paymentAttempts.updatedAt))
    .limit(options.limit ?? 100);
}

/** Closes one abandoned challenge; the answer says how the attempt ended. */
export async function closeAbandonedChallenge(
  db: Db,
  attempt: PaymentAttempt,
): Promise<"charged" | "failed" | "abandoned" | "open"> {
  const [business] = await db.select().from(businesses).where(eq(businesses.id, attempt.businessId)).limit(1);
  if (!business) throw new Error(`No business ${attempt.businessId}`);
  const provider = await cardProviderFor(db, business, attempt.provider);
  const providerPaymentId = attempt.providerPaymentId!;
  const now = chargeSettlement(await provider.retrieveCharge(providerPaymentId));
  if (now.kind !== "requires_action") {
    // Completed (or failed) at the provider, its event late or lost: record what happened.
    const settled = await settleAttempt(db, attempt, now);
    log.info("abandoned challenge settled from the provider", {
      attemptId: attempt.id,
      answer: now.kind,
      changed: settled.changed,
    });
    return now.kind === "charged" ? "charged" : now.kind === "failed" ? "failed" : "open";
  }
  const settled = await settleAttempt(db, attempt, abandonedFailure(providerPaymentId));
  const after = await provider.cancelCharge(providerPaymentId);
  log.info("abandoned challenge closed", {
    attemptId: attempt.id,
    businessId: attempt.businessId,
    changed: settled.changed,
    provider: after.status,
  });
  if (after.status === "succeeded") {
    // Authenticated between the question and the cancel: the money counts.
    await settleAttempt(db, attempt, chargeSettlement(after));
    return "charged";
  }
  return "abandoned";
}
