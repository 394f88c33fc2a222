import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payments, refunds, type Payment, type Refund } from "@/db/schema";
import { currentAuditActor, systemActor } from "@/lib/audit/audit-actor";
import { recordAudit } from "@/lib/audit/record-audit";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { postTransaction } from "@/lib/ledger/post-transaction";
import { log } from "@/lib/log";
import type { RefundOutcome } from "@/lib/providers/types";
import { lockSession } from "../payment-records";
import { announceRefund } from "./announce-refund";
import { countsAgainstPayment } from "./reserve-refund";
import { businessNowSql } from "@/lib/clock";

/** Credits back a refund's balance debit (a `refund_reversal` ledger transaction); its id, or null. */
async function reverseDebit(tx: Db, refund: Refund): Promise<string | null> {
  if (refund.ledgerAmount <= 0) return null;
  const posted = await postTransaction(tx, {
    businessId: refund.businessId,
    kind: "refund_reversal",
    reference: refund.id,
    entries: [
      { account: { kind: "external" }, amount: -refund.ledgerAmount },
      { account: { kind: "business_balance" }, amount: refund.ledgerAmount },
    ],
  });
  return posted.transactionId;
}

/**
 * The audit record of a refund's failure, beside the `payment.refund` that reserved it: the
 * payment's refunded amount going back, and why. The author is whoever is acting (the staff
 * member or key whose refund the provider refused at once), else Kassa itself (a provider's
 * later answer, read by a job).
 */
async function auditFailure(tx: Db, refund: Refund, payment: Payment, failureMessage: string): Promise<void> {
  const counts = countsAgainstPayment(refund.reason);
  await recordAudit(tx, {
    businessId: refund.businessId,
    action: "payment.refund_fail",
    target: { type: "payment", id: refund.sessionId },
    actor: currentAuditActor() ?? systemActor,
    changes: {
      ...(counts
        ? { refunded_amount: { from: payment.refundedAmount, to: payment.refundedAmount - refund.amount } }
        : {}),
      refund_status: { from: refund.status, to: "failed" },
      failure_message: { from: null, to: failureMessage },
    },
  });
}

/** pending or succeeded → failed: the debit credited back, the payment's refunded amount lowered. */
async function failRefund(
  tx: Db,
  refund: Refund,
  payment: Payment,
  outcome: Extract<RefundOutcome, { status: "failed" }>,
): Promise<Refund> {
  const reversal = await reverseDebit(tx, refund);
  await auditFailure(tx, refund, payment, outcome.failure.message);
  if (countsAgainstPayment(refund.reason))
    await tx
      .update(payments)
      .set({ refundedAmount: sql`${payments.refundedAmount} - ${refund.amount}`, updatedAt: sql`now()` })
      .where(eq(payments.id, refund.paymentId));
  const [failed] = await tx
    .update(refunds)
    .set({
      status: "failed",
      providerRefundId: outcome.providerRefundId ?? refund.providerRefundId,
      reversalTransactionId: reversal,
      failureMessage: outcome.failure.message,
      updatedAt: sql`now()`,
      completedAt: businessNowSql(refund.businessId),
    })
    .where(eq(refunds.id, refund.id))
    .returning();
  log.warn(
    refund.status === "succeeded"
      ? "refund failed at the provider after it succeeded"
      : "refund refused by the provider",
    { refundId: refund.id, failure: outcome.failure },
  );
  return failed!;
}

/**
 * Records a provider's answer about a refund, under the session and refund locks, reading the row
 * fresh: pending → succeeded (the `refunded` webhook, once), pending or succeeded → failed (the
 * balance debit credited back, once: a failed refund is never changed again), pending → pending
 * (the provider id kept; the `refund_payment` job re-reads it). Anything else changes nothing.
 */
export async function applyRefundOutcome(db: Db, refundId: string, outcome: RefundOutcome): Promise<Refund> {
  return transactionWithJobs(db, async (tx) => {
    const [current] = await tx
      .select({ sessionId: refunds.sessionId })
      .from(refunds)
      .where(eq(refunds.id, refundId));
    if (!current) throw new Error(`No refund ${refundId}`);
    const { session, business, payment } = await lockSession(tx, current.sessionId);
    const [refund] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for("update");
    if (!refund || refund.status === "failed" || !payment) return refund!;
    if (outcome.status === "failed") return failRefund(tx, refund, payment, outcome);
    if (refund.status !== "pending") return refund;
    if (outcome.status === "pending") {
      const [waiting] = await tx
        .update(refunds)
        .set({ providerRefundId: outcome.providerRefundId, updatedAt: sql`now()` })
        .where(eq(refunds.id, refundId))
        .returning();
      return waiting!;
    }
    const [done] = await tx
      .update(refunds)
      .set({
        status: "succeeded",
        providerRefundId: outcome.providerRefundId,
        updatedAt: sql`now()`,
        completedAt: businessNowSql(refund.businessId),
      })
      .where(eq(refunds.id, refundId))
      .returning();
    // Fraud declines announce themselves with `declined`; duplicates are Kassa's own business.
    if (refund.reason === "requested_by_merchant" || refund.reason === "provider_initiated")
      await announceRefund(tx, { business, session, payment, refund: done! });
    return done!;
  });
}
