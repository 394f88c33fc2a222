import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  finalAttemptStatuses,
  paymentAttempts,
  payments,
  refunds,
  type FraudVerdict,
  type Payment,
  type PaymentAttempt,
  type PaymentStatus,
} from "@/db/schema";
import { fraudSettingsOf } from "@/lib/fraud/fraud-settings";
import { combineVerdicts, riskVerdict } from "@/lib/fraud/screen-payment";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { log } from "@/lib/log";
import { notifyPaymentHeld } from "@/lib/mail/notify-owners";
import type { CardInfo, ProviderFailure } from "@/lib/providers/types";
import { announcePaymentSucceeded } from "@/lib/subscriptions/start-subscription";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";
import {
  cardPaymentDetails,
  completeCustomerDetails,
  creditBusiness,
  findAttempt,
  lockAttempt,
  lockSession,
  rememberProviderObject,
} from "./payment-records";
import { executeRefundsNow, reserveRefund } from "./refund-payment";
import { businessNow } from "@/lib/clock";
import { toDbTime } from "@/lib/time";

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

/** Cents already refunded (or being refunded) as duplicates of one provider payment. */
async function duplicateRefunds(tx: Db, provider: string, providerPaymentId: string): Promise<number> {
  const [row] = await tx
    .select({ total: sql<number>`coalesce(sum(${refunds.amount}), 0)::int` })
    .from(refunds)
    .where(
      and(
        eq(refunds.provider, provider),
        eq(refunds.providerPaymentId, providerPaymentId),
        eq(refunds.reason, "duplicate"),
        ne(refunds.status, "failed"),
      ),
    );
  return row?.total ?? 0;
}

export type SettleResult = { payment: Payment | null; attempt: PaymentAttempt; changed: boolean };

/** Statuses under which the session's money has been taken (or is held) by the current attempt. */
const paidStatuses: readonly PaymentStatus[] = ["succeeded", "pending_review", "declined"];

/**
 * Records what a provider said about one attempt, in one transaction under the session's lock:
 * the attempt, the session's payment (when the attempt is the payment's current one), the ledger
 * credit, refunds, and the interface's events. Idempotent: a settlement that changes nothing
 * (the inbound event and the API answer both reporting the same success) does nothing.
 *
 * A charge reported for an attempt that is no longer current (the payer gave up a challenge and
 * paid otherwise, or a crashed attempt turned out to have succeeded) becomes the payment if the
 * session is not paid yet, and is refunded as a duplicate otherwise: the customer never pays twice.
 */
export async function settleAttempt(
  db: Db,
  attemptId: string,
  settlement: Settlement,
): Promise<SettleResult> {
  const known = await findAttempt(db, attemptId);
  if (!known) throw new Error(`No payment attempt ${attemptId}`);
  const refundIds: string[] = [];
  const result = await transactionWithJobs(db, async (tx): Promise<SettleResult> => {
    const { session, business, payment } = await lockSession(tx, known.sessionId);
    // Completion times are the business's (a sandbox clock may be ahead of real time).
    const nowIso = () => toDbTime(businessNow(business));
    const attempt = (await lockAttempt(tx, attemptId))!;
    const current = payment?.attemptId === attempt.id;
    const unchanged: SettleResult = { payment, attempt, changed: false };
    const final = finalAttemptStatuses.includes(attempt.status);
    // Final attempts only move when money turns out to have been taken after all.
    const moneyAfterAll =
      (settlement.kind === "charged" && (attempt.status === "failed" || attempt.status === "abandoned")) ||
      (settlement.kind === "awaiting_payer" &&
        settlement.amountReceived > 0 &&
        attempt.status === "abandoned");
    if (final && !moneyAfterAll) return unchanged;

    const updateAttempt = async (set: Partial<PaymentAttempt>) => {
      const [row] = await tx
        .update(paymentAttempts)
        .set({ ...set, updatedAt: sql`now()` })
        .where(eq(paymentAttempts.id, attempt.id))
        .returning();
      return row!;
    };
    const updatePayment = async (set: Partial<Payment>) => {
      const [row] = await tx
        .update(payments)
        .set({ ...set, updatedAt: sql`now()` })
        .where(eq(payments.id, payment!.id))
        .returning();
      return row!;
    };
    const providerId = "providerPaymentId" in settlement ? settlement.providerPaymentId : null;
    if (providerId && providerId !== attempt.providerPaymentId)
      await rememberProviderObject(tx, {
        provider: attempt.provider,
        objectId: providerId,
        businessId: attempt.businessId,
        kind: attempt.provider === "stripe" ? "payment_intent" : "payment",
        sessionId: attempt.sessionId,
        attemptId: attempt.id,
      });
    const ids = providerId ? { providerPaymentId: providerId } : {};

    switch (settlement.kind) {
      case "requires_action": {
        if (attempt.status === "requires_action" && attempt.nextUrl === settlement.challengeUrl)
          return unchanged;
        const next = await updateAttempt({
          ...ids,
          status: "requires_action",
          nextUrl: settlement.challengeUrl,
        });
        return { payment, attempt: next, changed: true };
      }
      case "processing": {
        if (attempt.providerPaymentId === settlement.providerPaymentId) return unchanged;
        return { payment, attempt: await updateAttempt(ids), changed: true };
      }
      case "screened_out":
      case "failed": {
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
        const next = await updateAttempt({
          ...ids,
          status: blocked ? "declined" : "failed",
          failureCode: code,
          failureMessage: failure.message,
          fraud: blocked ? verdict : attempt.fraud,
          completedAt: nowIso(),
        });
        if (!current || !payment) return { payment, attempt: next, changed: true };
        if (!blocked) {
          const failed = await updatePayment({
            ...ids,
            status: "failed",
            failureCode: code,
            failureMessage: failure.message,
          });
          return { payment: failed, attempt: next, changed: true };
        }
        const declined = await updatePayment({
          ...ids,
          status: "declined",
          failureCode: code,
          failureMessage: failure.message,
          fraudDecision: "decline",
          fraudReasons: verdict.reasons,
          customerDetails: completeCustomerDetails(attempt.customerDetails),
          paymentDetails: attempt.paymentDetails,
          completedAt: nowIso(),
        });
        await emitWebhookEvent(tx, { business, session, payment: declined, type: "declined" });
        return { payment: declined, attempt: next, changed: true };
      }
      case "awaiting_payer": {
        const received = settlement.amountReceived;
        const paidByOther =
          !current && payment && (paidStatuses.includes(payment.status) || (payment.amountReceived ?? 0) > 0);
        if (paidByOther || attempt.status === "abandoned") {
          // Money arrived on an abandoned redirect payment: refund what was not refunded yet.
          const next =
            attempt.status === "abandoned"
              ? attempt
              : await updateAttempt({ ...ids, status: "abandoned", completedAt: nowIso() });
          const owed =
            received - (await duplicateRefunds(tx, attempt.provider, settlement.providerPaymentId));
          if (owed > 0 && payment) {
            const refund = await reserveRefund(tx, {
              payment,
              provider: attempt.provider,
              providerPaymentId: settlement.providerPaymentId,
              amount: owed,
              reason: "duplicate",
              ledgerAmount: 0,
            });
            refundIds.push(refund.id);
          }
          return { payment, attempt: next, changed: owed > 0 || next !== attempt };
        }
        const next = await updateAttempt({
          ...ids,
          status: "pending",
          ...(settlement.redirectUrl ? { nextUrl: settlement.redirectUrl } : {}),
        });
        if (!payment) return { payment, attempt: next, changed: true };
        const before = current ? (payment.amountReceived ?? 0) : 0;
        const pointed = current
          ? {}
          : {
              attemptId: attempt.id,
              amount: attempt.amount,
              paymentMethod: attempt.method,
              provider: attempt.provider,
            };
        const updated = await updatePayment({
          ...pointed,
          ...ids,
          status: "pending",
          amountReceived: received > 0 ? received : current ? payment.amountReceived : null,
        });
        if (received > before && received < attempt.amount)
          await emitWebhookEvent(tx, {
            business,
            session,
            payment: updated,
            type: "incomplete",
            amountRemaining: attempt.amount - received,
          });
        return { payment: updated, attempt: next, changed: true };
      }
      case "charged": {
        if (!payment) throw new Error(`Session ${session.id} has no payment for attempt ${attempt.id}`);
        const paidByOther =
          !current &&
          (paidStatuses.includes(payment.status) ||
            ((payment.amountReceived ?? 0) > 0 && payment.status === "pending"));
        if (paidByOther) {
          const next = await updateAttempt({
            ...ids,
            status: "succeeded",
            failureMessage: "duplicate charge: refunded",
            completedAt: nowIso(),
          });
          const owed =
            attempt.amount - (await duplicateRefunds(tx, attempt.provider, settlement.providerPaymentId));
          if (owed > 0) {
            const refund = await reserveRefund(tx, {
              payment,
              provider: attempt.provider,
              providerPaymentId: settlement.providerPaymentId,
              amount: owed,
              reason: "duplicate",
              ledgerAmount: 0,
            });
            refundIds.push(refund.id);
          }
          log.warn("duplicate charge refunded", { attemptId: attempt.id, sessionId: session.id });
          return { payment, attempt: next, changed: true };
        }
        const settings = fraudSettingsOf(business);
        const verdict = combineVerdicts(attempt.fraud, riskVerdict(settings, settlement.riskLevel));
        const paymentDetails = settlement.card
          ? cardPaymentDetails(settlement.card)
          : (attempt.paymentDetails ?? { type: attempt.method });
        const next = await updateAttempt({
          ...ids,
          status: verdict.decision === "decline" ? "declined" : "succeeded",
          paymentDetails,
          riskLevel: settlement.riskLevel,
          fraud: verdict,
          failureCode: null,
          failureMessage: null,
          completedAt: nowIso(),
        });
        const status: PaymentStatus =
          verdict.decision === "allow"
            ? "succeeded"
            : verdict.decision === "review"
              ? "pending_review"
              : "declined";
        let updated = await updatePayment({
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
          riskLevel: settlement.riskLevel,
          fraudDecision: verdict.decision,
          fraudReasons: verdict.reasons,
          failureCode: null,
          failureMessage: null,
          completedAt: nowIso(),
        });
        if (status === "succeeded") {
          await creditBusiness(tx, updated);
          await announcePaymentSucceeded(tx, { business, session, payment: updated });
        } else if (status === "pending_review") {
          await emitWebhookEvent(tx, { business, session, payment: updated, type: "pending_review" });
          await notifyPaymentHeld(tx, business.id, session.id, attempt.amount);
        } else {
          const refund = await reserveRefund(tx, {
            payment: updated,
            provider: attempt.provider,
            providerPaymentId: settlement.providerPaymentId,
            amount: attempt.amount,
            reason: "fraud_declined",
            ledgerAmount: 0,
          });
          refundIds.push(refund.id);
          const [reread] = await tx.select().from(payments).where(eq(payments.id, updated.id));
          updated = reread!;
          await emitWebhookEvent(tx, { business, session, payment: updated, type: "declined" });
        }
        return { payment: updated, attempt: next, changed: true };
      }
    }
  });
  await executeRefundsNow(db, refundIds);
  return result;
}
