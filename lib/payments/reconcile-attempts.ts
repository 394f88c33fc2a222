import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, instances, paymentAttempts, type PaymentAttempt } from "@/db/schema";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { cardProviderFor, redirectProviderFor } from "@/lib/providers/provider-for";
import { closeAbandonedChallenge, findAbandonedChallenges } from "./close-abandoned-challenges";
import { chargeSettlement, redirectSettlement } from "./refresh-payment";
import { settleAttempt, type Settlement } from "./settle-attempt";
import { forgetOutcome, unknownOutcomes } from "./unknown-outcomes";

/**
 * Reconciliation (decision 0025): a payment attempt is written `started` before its provider is
 * called, and settled when the provider answers. A process that dies in between leaves it
 * `started` (its payment `processing`) for good, though the customer may have been charged. This
 * finds such attempts and asks their provider what happened, then settles them through
 * settleAttempt, the code inbound provider events use: exactly once, whoever comes first (the
 * session and attempt are locked and re-read, a final attempt does not move again, a charge is
 * credited once), so concurrent reconcilers and a late provider event change nothing twice.
 */

export type ReconcileOptions = {
  /** An attempt open this long is reconciled even when its process looks alive (RECONCILE_GRACE_SECONDS). */
  graceMs?: number;
  /** A process silent this long is gone (INSTANCE_TIMEOUT_SECONDS). */
  instanceTimeoutMs?: number;
  /** Attempts looked at per pass (the oldest first). */
  limit?: number;
  /** A challenge waiting this long is closed (AUTHENTICATION_TIMEOUT_MINUTES). */
  authenticationTimeoutMs?: number;
};

export type ReconcileResult = {
  /** Attempts found open past the rules. */
  checked: number;
  /** Recorded as charged (payment succeeded, in review or declined by Kassa's screening). */
  charged: number;
  /** Recorded as failed or declined at the provider, or never made there. */
  failed: number;
  /** The provider has no final answer yet: recorded as it is (a redirect payment waits for its payer). */
  open: number;
  /** Waited for the payer's 3-D Secure authentication too long: failed `authentication_abandoned`. */
  abandoned: number;
  /** The provider could not be asked (the next pass tries again). */
  errors: number;
};

/** What a crash before any charge leaves: the provider has nothing for the attempt. */
const interrupted: Settlement = {
  kind: "failed",
  providerPaymentId: null,
  failure: {
    code: "interrupted",
    message: "The payment was interrupted before it reached the provider: nothing was charged",
  },
  blocked: false,
};

/**
 * Attempts still `started` whose process is gone (its `instances` row silent past the timeout, or
 * deleted at its stop), or open longer than the grace period whatever their process (one that
 * hangs, or attempts written before processes were tracked), or given up by a pay of this process
 * whose outcome could not be recorded (./unknown-outcomes.ts, decision 0066).
 */
export async function findAttemptsToReconcile(
  db: Db,
  options: ReconcileOptions = {},
): Promise<PaymentAttempt[]> {
  const e = env();
  const graceMs = options.graceMs ?? e.RECONCILE_GRACE_SECONDS * 1000;
  const timeoutMs = options.instanceTimeoutMs ?? e.INSTANCE_TIMEOUT_SECONDS * 1000;
  const ago = (ms: number) => sql`now() - ${ms}::float8 * interval '1 millisecond'`;
  const givenUp = unknownOutcomes();
  const rows = await db
    .select({ attempt: paymentAttempts })
    .from(paymentAttempts)
    .leftJoin(instances, eq(instances.id, paymentAttempts.instanceId))
    .where(
      and(
        eq(paymentAttempts.status, "started"),
        or(
          lt(paymentAttempts.updatedAt, ago(graceMs)),
          givenUp.length ? inArray(paymentAttempts.id, givenUp) : undefined,
          and(
            isNotNull(paymentAttempts.instanceId),
            or(isNull(instances.id), lt(instances.heartbeatAt, ago(timeoutMs))),
          ),
        ),
      ),
    )
    .orderBy(asc(paymentAttempts.updatedAt))
    .limit(options.limit ?? 100);
  return rows.map((r) => r.attempt);
}

/** The provider's answer about one attempt, as a settlement (never a guess: `interrupted` only when it has nothing). */
async function askProvider(db: Db, attempt: PaymentAttempt): Promise<Settlement> {
  const [business] = await db.select().from(businesses).where(eq(businesses.id, attempt.businessId)).limit(1);
  if (!business) throw new Error(`No business ${attempt.businessId}`);
  if (attempt.provider === "stripe") {
    const provider = await cardProviderFor(db, business, attempt.provider);
    if (attempt.providerPaymentId)
      return chargeSettlement(await provider.retrieveCharge(attempt.providerPaymentId));
    // The customer is recorded before the charge is asked for: without one, no charge was.
    if (!attempt.providerCustomerId) return interrupted;
    const found = await provider.findChargeOfAttempt(attempt.id, attempt.providerCustomerId);
    return found ? chargeSettlement(found) : interrupted;
  }
  const provider = await redirectProviderFor(db, business, attempt.provider);
  const state = attempt.providerPaymentId
    ? await provider.retrievePayment(attempt.providerPaymentId)
    : await provider.findPaymentOfAttempt(attempt.id);
  return state ? redirectSettlement(state) : interrupted;
}

/**
 * Settles one attempt from its provider's answer. A charge or a failure is final; a payment still
 * open at a redirect provider becomes `pending` (as if the start had answered: the payer may still
 * pay, and the session's expiry applies), never failed; a charge still processing keeps the attempt
 * open for the next pass.
 */
export async function reconcileAttempt(
  db: Db,
  attempt: PaymentAttempt,
): Promise<"charged" | "failed" | "open"> {
  const settlement = await askProvider(db, attempt);
  const settled = await settleAttempt(db, attempt, settlement);
  if (settled.attempt.status !== "started") forgetOutcome(attempt.id);
  log.info("payment attempt reconciled", {
    attemptId: attempt.id,
    businessId: attempt.businessId,
    provider: attempt.provider,
    answer: settlement.kind,
    status: settled.attempt.status,
    changed: settled.changed,
  });
  if (settlement.kind === "charged") return "charged";
  if (settlement.kind === "failed" || settlement.kind === "screened_out") return "failed";
  return "open";
}

/**
 * One pass: every attempt left open past the rules, then every 3-D Secure challenge abandoned past
 * its window (close-abandoned-challenges.ts), oldest first; one attempt's error does not stop the others.
 */
export async function reconcileOpenAttempts(
  db: Db,
  options: ReconcileOptions = {},
): Promise<ReconcileResult> {
  const result: ReconcileResult = { checked: 0, charged: 0, failed: 0, open: 0, abandoned: 0, errors: 0 };
  for (const attempt of await findAttemptsToReconcile(db, options)) {
    result.checked += 1;
    try {
      result[await reconcileAttempt(db, attempt)] += 1;
    } catch (error) {
      result.errors += 1;
      log.warn("reconciling a payment attempt failed", { attemptId: attempt.id, error });
    }
  }
  const challenges = await findAbandonedChallenges(db, {
    timeoutMs: options.authenticationTimeoutMs,
    limit: options.limit,
  });
  for (const attempt of challenges) {
    result.checked += 1;
    try {
      result[await closeAbandonedChallenge(db, attempt)] += 1;
    } catch (error) {
      result.errors += 1;
      log.warn("closing an abandoned challenge failed", { attemptId: attempt.id, error });
    }
  }
  return result;
}
