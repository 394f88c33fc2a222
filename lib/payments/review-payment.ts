import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { paymentAttempts, payments, type Business, type Payment } from "@/db/schema";
import { ConflictError } from "@/lib/errors";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { announcePaymentSucceeded } from "@/lib/subscriptions/start-subscription";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";
import { getPayment, type PaymentView } from "./get-payment";
import { creditBusiness, lockSession } from "./payment-records";
import { executePendingRefunds } from "./refund/execute-refund";
import { reserveRefund } from "./refund/reserve-refund";
import { businessNowSql } from "@/lib/clock";

/** 409 `payment_not_in_review`: only a payment held for review (`pending_review`) is reviewed. */
function notInReview(payment?: Payment | null): ConflictError {
  return new ConflictError(
    "payment_not_in_review",
    `This payment is not held for review (its status is ${payment?.status ?? "none: no payment was made"}); only a pending_review payment can be accepted or declined`,
  );
}

/**
 * A payment held by fraud screening (`pending_review`: charged, not credited) is accepted: it
 * becomes `succeeded`, its net amount is credited to the business balance, `succeeded` is sent.
 */
export async function acceptReviewedPayment(
  db: Db,
  businessId: string,
  sessionId: string,
): Promise<PaymentView> {
  const business = await transactionWithJobs(db, async (tx) => {
    const { session, business, payment } = await lockSession(tx, sessionId, businessId);
    if (payment?.status !== "pending_review") throw notInReview(payment);
    const [accepted] = await tx
      .update(payments)
      .set({ status: "succeeded", reviewedAt: businessNowSql(businessId), updatedAt: sql`now()` })
      .where(eq(payments.id, payment.id))
      .returning();
    await creditBusiness(tx, accepted!);
    await recordAudit(tx, { businessId, action: "payment.review", target: { type: "payment", id: sessionId }, changes: { status: { from: payment.status, to: "succeeded" } } });
    await announcePaymentSucceeded(tx, { business, session, payment: accepted! });
    return business;
  });
  return getPayment(db, business, sessionId);
}

/**
 * A payment held by fraud screening is declined: `declined`, the customer refunded in full at the
 * provider (nothing was credited, so nothing is debited), `declined` sent. One operation in two
 * phases, run alike by the API (the reservation inside its Idempotency-Key transaction) and the
 * dashboard: reserveReviewDecline, then completeReviewDecline after commit.
 */
export async function declineReviewedPayment(
  db: Db,
  businessId: string,
  sessionId: string,
): Promise<PaymentView> {
  const { business } = await reserveReviewDecline(db, businessId, sessionId);
  return completeReviewDecline(db, business, sessionId);
}

/**
 * After the commit of a decline (first answer and replays alike): the session's pending refunds
 * executed at the provider, and the payment as it is now.
 */
export async function completeReviewDecline(
  db: Db,
  business: Business,
  sessionId: string,
): Promise<PaymentView> {
  await executePendingRefunds(db, sessionId);
  return getPayment(db, business, sessionId);
}

/**
 * The database half of a decline (in its own transaction, or a savepoint of the caller's): the
 * payment `declined`, its full refund reserved, `declined` emitted. The caller executes the
 * returned refunds at the provider after commit.
 */
export async function reserveReviewDecline(
  db: Db,
  businessId: string,
  sessionId: string,
): Promise<{ business: Business; refundIds: string[] }> {
  const refundIds: string[] = [];
  const business = await transactionWithJobs(db, async (tx) => {
    const { session, business, payment } = await lockSession(tx, sessionId, businessId);
    if (payment?.status !== "pending_review" || !payment.provider || !payment.providerPaymentId)
      throw notInReview(payment);
    const [declined] = await tx
      .update(payments)
      .set({
        status: "declined",
        fraudDecision: "decline",
        fraudReasons: [...(payment.fraudReasons ?? []), "review_declined"],
        reviewedAt: businessNowSql(businessId),
        updatedAt: sql`now()`,
      })
      .where(eq(payments.id, payment.id))
      .returning();
    if (payment.attemptId)
      await tx
        .update(paymentAttempts)
        .set({ status: "declined", updatedAt: sql`now()` })
        .where(eq(paymentAttempts.id, payment.attemptId));
    const refund = await reserveRefund(tx, {
      payment: declined!,
      provider: payment.provider,
      providerPaymentId: payment.providerPaymentId,
      amount: payment.amount - payment.refundedAmount,
      reason: "review_declined",
      ledgerAmount: 0,
    });
    refundIds.push(refund.id);
    await recordAudit(tx, { businessId, action: "payment.review", target: { type: "payment", id: sessionId }, changes: { status: { from: payment.status, to: "declined" } } });
    const [current] = await tx.select().from(payments).where(eq(payments.id, payment.id));
    await emitWebhookEvent(tx, { business, session, payment: current!, type: "declined" });
    return business;
  });
  return { business, refundIds };
}

export type ReviewDecision = "accept" | "decline";

/** The merchant's review of a held payment: accept or decline (for the API and the dashboard). */
export async function reviewPayment(
  db: Db,
  businessId: string,
  sessionId: string,
  decision: ReviewDecision,
): Promise<PaymentView> {
  return decision === "accept"
    ? acceptReviewedPayment(db, businessId, sessionId)
    : declineReviewedPayment(db, businessId, sessionId);
}
