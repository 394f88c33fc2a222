import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payments, refunds, type Payment, type Refund, type RefundReason } from "@/db/schema";
import { BadRequestError, InsufficientFundsError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { postTransaction } from "@/lib/ledger/post-transaction";
import { businessNowSql } from "@/lib/clock";

/**
 * Refunds (decision 0008), phase 2: the reservation, inside the caller's transaction. A refund is
 * reserved (refund row `pending`, the business balance debited, the payment's refunded amount
 * raised, a `refund_payment` job as a safety net), then executed at the provider after commit with
 * the refund id as idempotency key (./execute-refund.ts), then finalized (./apply-refund-outcome.ts).
 *
 * Fees: the business gives back what it received for the refunded share, i.e. the ledger debit
 * is the refunded share of the net amount (cumulative rounding, so a full refund debits exactly
 * the net that was credited). The fee share is not charged to the business. Money is never created
 * or lost: what was credited is what can come back out.
 */

/** Refunds of the payment's own charge count against its amount; a duplicate charge's do not. */
export const countsAgainstPayment = (reason: RefundReason) => reason !== "duplicate";

export type ReserveRefundInput = {
  payment: Payment;
  provider: string;
  providerPaymentId: string;
  amount: number;
  reason: RefundReason;
  /** Cents taken from the business balance (0 when the payment was never credited). */
  ledgerAmount: number;
  /** The merchant's note: kept on the refund and sent to the provider (metadata `kassa_reason`). */
  note?: string;
};

/** Debits the business balance for a refund (a `refund` ledger transaction); its id. */
export async function debitForRefund(
  tx: Db,
  businessId: string,
  refundId: string,
  ledgerAmount: number,
): Promise<string> {
  const posted = await postTransaction(tx, {
    businessId,
    kind: "refund",
    reference: refundId,
    entries: [
      { account: { kind: "business_balance" }, amount: -ledgerAmount },
      { account: { kind: "external" }, amount: ledgerAmount },
    ],
  });
  return posted.transactionId;
}

/** Reserves a refund inside the caller's transaction (which must hold the session lock). */
export async function reserveRefund(tx: Db, input: ReserveRefundInput): Promise<Refund> {
  const id = newId("refund");
  const [refund] = await tx
    .insert(refunds)
    .values({
      id,
      businessId: input.payment.businessId,
      paymentId: input.payment.id,
      sessionId: input.payment.sessionId,
      provider: input.provider,
      providerPaymentId: input.providerPaymentId,
      amount: input.amount,
      ledgerAmount: input.ledgerAmount,
      reason: input.reason,
      note: input.note || null,
      createdAt: businessNowSql(input.payment.businessId),
    })
    .returning();
  if (input.ledgerAmount > 0) {
    try {
      const transactionId = await debitForRefund(tx, input.payment.businessId, id, input.ledgerAmount);
      await tx.update(refunds).set({ ledgerTransactionId: transactionId }).where(eq(refunds.id, id));
    } catch (error) {
      if (error instanceof InsufficientFundsError)
        throw new BadRequestError(
          "insufficient_balance",
          `The business balance is too low for this refund: it needs ${input.ledgerAmount} cents (the refunded share of the net amount)`,
        );
      throw error;
    }
  }
  if (countsAgainstPayment(input.reason))
    await tx
      .update(payments)
      .set({ refundedAmount: sql`${payments.refundedAmount} + ${input.amount}`, updatedAt: sql`now()` })
      .where(eq(payments.id, input.payment.id));
  // Executed right after commit by the caller; the job is the safety net if that never happens.
  await enqueueJob(tx, {
    kind: "refund_payment",
    businessId: input.payment.businessId,
    payload: { refundId: id },
    runAt: new Date(Date.now() + 60_000),
    dedupeKey: `refund_payment:${id}`,
    maxAttempts: 20,
  });
  return refund!;
}

/** Cents of a payment's refunds that succeeded, counting against its amount (the `refunded` payload's total). */
export async function succeededRefundTotal(tx: Db, paymentId: string): Promise<number> {
  const [row] = await tx
    .select({ total: sql<number>`coalesce(sum(${refunds.amount}), 0)::int` })
    .from(refunds)
    .where(
      and(eq(refunds.paymentId, paymentId), eq(refunds.status, "succeeded"), ne(refunds.reason, "duplicate")),
    );
  return row?.total ?? 0;
}

/** The ledger debit of refunding `amount` more of a payment, after what earlier refunds took. */
export async function ledgerShare(tx: Db, payment: Payment, amount: number): Promise<number> {
  if (!payment.creditTransactionId || !payment.netAmount) return 0;
  const [row] = await tx
    .select({ taken: sql<number>`coalesce(sum(${refunds.ledgerAmount}), 0)::int` })
    .from(refunds)
    .where(
      and(eq(refunds.paymentId, payment.id), ne(refunds.status, "failed"), ne(refunds.reason, "duplicate")),
    );
  const refundedAfter = BigInt(payment.refundedAmount + amount);
  const target = Number((BigInt(payment.netAmount) * refundedAfter) / BigInt(payment.amount));
  return Math.max(0, target - (row?.taken ?? 0));
}
