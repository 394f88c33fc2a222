import type { Db } from "@/db/client";
import type { Business } from "@/db/schema";
import { classifyDatabaseFault } from "@/lib/database-fault";
import { databaseFault } from "@/lib/db-errors";
import { PaymentOutcomeUnknownError, ProviderError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { ensureInstanceHeartbeat } from "@/lib/instances/instance-heartbeat";
import { log } from "@/lib/log";
import { getPayment, paymentView } from "./get-payment";
import {
  payInputSchema,
  type ParsedInput,
  type PayContext,
  type PayInput,
  type PayResult,
} from "./pay-input";
import { payByCard, payByRedirect } from "./pay-by-provider";
import { prepareAttempt, type Prepared } from "./prepare-attempt";
import { sandboxChallengeUrl } from "./sandbox-challenge";
import { settleAttempt, type SettleResult } from "./settle-attempt";
import { markOutcomeUnknown } from "./unknown-outcomes";

export { customerDetailsSchema, type PayContext, type PayInput, type PayResult } from "./pay-input";
export { staleAttemptMs } from "./prepare-attempt";

async function result(
  db: Db,
  business: Business,
  sessionId: string,
  settled: SettleResult | null,
): Promise<PayResult> {
  // The session and payment as the settlement left them, read under its lock: no read again.
  const payment = settled?.payment
    ? paymentView(settled.session, settled.payment, settled.business)
    : await getPayment(db, business, sessionId);
  const attempt = settled?.attempt;
  if (attempt?.status === "requires_action" && attempt.nextUrl)
    return {
      payment,
      next: {
        type: "authenticate",
        // Sandbox: Kassa's own challenge page (the emulator's is on a loopback port).
        challengeUrl: business.mode === "sandbox" ? sandboxChallengeUrl(attempt.id) : attempt.nextUrl,
      },
    };
  if (attempt?.status === "pending" && attempt.nextUrl)
    return { payment, next: { type: "redirect", url: attempt.nextUrl } };
  if (attempt && (attempt.status === "failed" || attempt.status === "declined") && attempt.failureCode)
    return {
      payment,
      failure: { code: attempt.failureCode, message: attempt.failureMessage ?? "The payment failed" },
    };
  return { payment };
}

/**
 * Pays a session: the one code path of the hosted page, the sandbox helper and POST /session's
 * redirect start (decision 0008).
 *
 * 1. Under the session's lock (SELECT … FOR UPDATE, prepare-attempt.ts): IP check, payability, the
 *    method (the forced one only, active for the business), fees; the payment row goes `processing` and a `started`
 *    attempt is written, so a concurrent call finds the session busy and nothing is charged twice.
 * 2. Outside any transaction: the provider calls, with fraud screening between card and charge
 *    (pay-by-provider.ts).
 * 3. One transaction records the outcome: payment, ledger credit, refunds, events (settleAttempt).
 */
export async function paySession(
  db: Db,
  sessionId: string,
  input: PayInput,
  ctx: PayContext,
): Promise<PayResult> {
  const parsed = parseOrThrow(payInputSchema, input);
  await ensureInstanceHeartbeat(db);
  const prepared = await db.transaction((tx) => prepareAttempt(tx, sessionId, parsed, ctx));
  if (prepared.kind === "resume") {
    return { payment: await getPayment(db, prepared.business, sessionId), next: prepared.next };
  }
  const { attempt, business } = prepared;
  try {
    return await result(db, business, sessionId, await payAndSettle(db, prepared, parsed));
  } catch (error) {
    // The database failed once the attempt was started: the charge may have been made (or made and
    // recorded, with only the answer's read failing). Never answered or recorded as failed; the
    // reconciler asks the provider once the database is back (decision 0066), and the caller is
    // told the outcome is not known yet.
    if (!classifyDatabaseFault(error, { attemptId: attempt.id })) throw error;
    markOutcomeUnknown(attempt.id);
    throw new PaymentOutcomeUnknownError(attempt.id, 10, { cause: error });
  }
}

/** Phases 2 and 3 of paySession: the provider's calls, and their outcome recorded. */
async function payAndSettle(db: Db, prepared: Extract<Prepared, { kind: "attempt" }>, parsed: ParsedInput) {
  const { attempt, method } = prepared;
  try {
    return method.redirect ? await payByRedirect(db, prepared) : await payByCard(db, prepared, parsed);
  } catch (error) {
    if (databaseFault(error)) throw error;
    // The provider did not answer, or refused the set-up: the attempt fails (a charge that went
    // through after all is recovered from the provider's event and never taken twice).
    const failure =
      error instanceof ProviderError
        ? { code: error.errorType, message: error.message }
        : { code: "internal_error", message: "The payment could not be completed" };
    if (!(error instanceof ProviderError))
      log.error("payment attempt failed", { attemptId: attempt.id, error });
    const settled = await settleAttempt(db, attempt, {
      kind: "failed",
      providerPaymentId: null,
      failure,
      blocked: false,
    });
    if (!(error instanceof ProviderError)) throw error;
    return settled;
  }
}
