import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  businesses,
  payments,
  refunds,
  sessions,
  type Payment,
  type Refund,
  type RefundReason,
} from "@/db/schema";
import {
  BadRequestError,
  ConflictError,
  InsufficientFundsError,
  ProviderError,
  ValidationError,
} from "@/lib/errors";
import { newId } from "@/lib/ids";
import { enqueueJob, transactionWithJobs } from "@/lib/jobs/enqueue-job";
import type { JobHandler } from "@/lib/jobs/job-outcome";
import { postTransaction } from "@/lib/ledger/post-transaction";
import { log } from "@/lib/log";
import { providerFor } from "@/lib/providers/provider-for";
import type { RefundRequest } from "@/lib/providers/types";
import { cancelRefundedSubscription } from "@/lib/subscriptions/cancel-refunded-subscription";
import { isoMicros } from "@/lib/time";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";
import { lockSession } from "./payment-records";

/**
 * Refunds (decision 0008). A refund is reserved in one transaction (refund row `pending`, the
 * business balance debited, the payment's refunded amount raised, a `refund_payment` job as a
 * safety net), then executed at the provider after commit with the refund id as idempotency key,
 * then finalized: `succeeded` (with the `refunded` event), or `failed` with the debit credited back.
 *
 * Fees: the business gives back what it received for the refunded share, i.e. the ledger debit
 * is the refunded share of the net amount (cumulative rounding, so a full refund debits exactly
 * the net that was credited). The fee share is not charged to the business. Money is never created
 * or lost: what was credited is what can come back out.
 */

/** Refunds of the payment's own charge count against its amount; a duplicate charge's do not. */
const countsAgainstPayment = (reason: RefundReason) => reason !== "duplicate";

export type ReserveRefundInput = {
  payment: Payment;
  provider: string;
  providerPaymentId: string;
  amount: number;
  reason: RefundReason;
  /** Cents taken from the business balance (0 when the payment was never credited). */
  ledgerAmount: number;
};

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
    })
    .returning();
  if (input.ledgerAmount > 0) {
    try {
      const posted = await postTransaction(tx, {
        businessId: input.payment.businessId,
        kind: "refund",
        reference: id,
        entries: [
          { account: { kind: "business_balance" }, amount: -input.ledgerAmount },
          { account: { kind: "external" }, amount: input.ledgerAmount },
        ],
      });
      await tx.update(refunds).set({ ledgerTransactionId: posted.transactionId }).where(eq(refunds.id, id));
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

const providerReason: Record<RefundReason, RefundRequest["reason"]> = {
  requested_by_merchant: "requested_by_customer",
  provider_initiated: "requested_by_customer",
  fraud_declined: "fraudulent",
  review_declined: "fraudulent",
  duplicate: "duplicate",
};

/**
 * Executes a reserved refund at its provider and records the result. Idempotent: a refund no
 * longer pending is returned as is, and the provider call carries the refund id as its key.
 * Throws ProviderError when the provider cannot be reached (the refund stays pending; its job retries).
 */
export async function executeRefund(db: Db, refundId: string): Promise<Refund> {
  const [row] = await db
    .select({ refund: refunds, business: businesses })
    .from(refunds)
    .innerJoin(businesses, eq(businesses.id, refunds.businessId))
    .where(eq(refunds.id, refundId))
    .limit(1);
  if (!row) throw new Error(`No refund ${refundId}`);
  if (row.refund.status !== "pending") return row.refund;
  const provider = await providerFor(db, row.business, row.refund.provider);
  const outcome = await provider.refund({
    refundId,
    providerPaymentId: row.refund.providerPaymentId,
    amount: row.refund.amount,
    reason: providerReason[row.refund.reason],
    metadata: {
      kassa_refund_id: refundId,
      kassa_session_id: row.refund.sessionId,
      kassa_business_id: row.business.id,
    },
  });
  return transactionWithJobs(db, async (tx) => {
    const { session, business, payment } = await lockSession(tx, row.refund.sessionId);
    const [refund] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for("update");
    if (!refund || refund.status !== "pending" || !payment) return refund!;
    if (outcome.status === "failed") {
      let reversal: string | null = null;
      if (refund.ledgerAmount > 0) {
        const posted = await postTransaction(tx, {
          businessId: refund.businessId,
          kind: "refund_reversal",
          reference: refund.id,
          entries: [
            { account: { kind: "external" }, amount: -refund.ledgerAmount },
            { account: { kind: "business_balance" }, amount: refund.ledgerAmount },
          ],
        });
        reversal = posted.transactionId;
      }
      if (countsAgainstPayment(refund.reason))
        await tx
          .update(payments)
          .set({ refundedAmount: sql`${payments.refundedAmount} - ${refund.amount}`, updatedAt: sql`now()` })
          .where(eq(payments.id, refund.paymentId));
      const [failed] = await tx
        .update(refunds)
        .set({
          status: "failed",
          providerRefundId: outcome.providerRefundId,
          reversalTransactionId: reversal,
          failureMessage: outcome.failure.message,
          updatedAt: sql`now()`,
          completedAt: sql`now()`,
        })
        .where(eq(refunds.id, refundId))
        .returning();
      log.warn("refund refused by the provider", { refundId, failure: outcome.failure });
      return failed!;
    }
    const [done] = await tx
      .update(refunds)
      .set({
        status: "succeeded",
        providerRefundId: outcome.providerRefundId,
        updatedAt: sql`now()`,
        completedAt: sql`now()`,
      })
      .where(eq(refunds.id, refundId))
      .returning();
    // Fraud declines announce themselves with `declined`; duplicates are Kassa's own business.
    if (refund.reason === "requested_by_merchant" || refund.reason === "provider_initiated") {
      await emitWebhookEvent(tx, { business, session, payment, type: "refunded" });
      await cancelRefundedSubscription(tx, business, payment.id);
    }
    return done!;
  });
}

/** Executes refunds right after the commit that reserved them; a failure leaves them to their job. */
export async function executeRefundsNow(db: Db, refundIds: string[]): Promise<void> {
  for (const id of refundIds)
    await executeRefund(db, id).catch((error: unknown) =>
      log.warn("refund deferred to its job", { refundId: id, error }),
    );
}

// Job `refund_payment`: the safety net of a reserved refund.
export const refundPaymentJob: JobHandler = async (db, job) => {
  const refundId = String(job.payload.refundId ?? "");
  try {
    const refund = await executeRefund(db, refundId);
    return { status: "done", note: `refund ${refund.status}` };
  } catch (error) {
    if (error instanceof ProviderError)
      return { status: "retry", at: new Date(Date.now() + 5 * 60_000), note: error.message };
    throw error;
  }
};

export type RefundView = {
  id: string;
  session_id: string;
  amount: number;
  /** Cents taken from the business balance for it. */
  balance_debit: number;
  status: Refund["status"];
  reason: Refund["reason"];
  created_at: string;
};

export function refundView(refund: Refund): RefundView {
  return {
    id: refund.id,
    session_id: refund.sessionId,
    amount: refund.amount,
    balance_debit: refund.ledgerAmount,
    status: refund.status,
    reason: refund.reason,
    created_at: isoMicros(refund.createdAt),
  };
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

/**
 * Refunds a succeeded payment in full (no amount) or in part, at its provider. The sum of refunds
 * never exceeds the payment; the business balance must hold the refunded share of the net amount
 * (else 400 `insufficient_balance`, nothing refunded). Answers the refund: `succeeded`, `failed`
 * (refused by the provider, balance restored), or `pending` (provider unreachable: retried).
 */
export async function refundPayment(
  db: Db,
  businessId: string,
  sessionId: string,
  options: { amount?: number } = {},
): Promise<RefundView> {
  if (options.amount !== undefined && (!Number.isSafeInteger(options.amount) || options.amount < 1))
    throw ValidationError.field("amount", "amount must be a positive integer (cents)");
  const refund = await transactionWithJobs(db, async (tx) => {
    const { payment } = await lockSession(tx, sessionId, businessId);
    if (!payment || payment.status !== "succeeded" || !payment.providerPaymentId || !payment.provider)
      throw new ConflictError("payment_not_refundable", "Only a succeeded payment can be refunded");
    const refundable = payment.amount - payment.refundedAmount;
    if (refundable <= 0)
      throw new ConflictError("payment_fully_refunded", "This payment has been refunded in full");
    const amount = options.amount ?? refundable;
    if (amount > refundable)
      throw ValidationError.field(
        "amount",
        `amount may be at most ${refundable} (the payment minus earlier refunds)`,
      );
    return reserveRefund(tx, {
      payment,
      provider: payment.provider,
      providerPaymentId: payment.providerPaymentId,
      amount,
      reason: "requested_by_merchant",
      ledgerAmount: await ledgerShare(tx, payment, amount),
    });
  });
  try {
    return refundView(await executeRefund(db, refund.id));
  } catch (error) {
    if (error instanceof ProviderError) return refundView(refund);
    throw error;
  }
}

/** Refunds of a session's payment, oldest first (for the dashboard). */
export async function listRefunds(db: Db, businessId: string, sessionId: string): Promise<RefundView[]> {
  const rows = await db
    .select({ refund: refunds })
    .from(refunds)
    .innerJoin(sessions, eq(sessions.id, refunds.sessionId))
    .where(and(eq(refunds.sessionId, sessionId), eq(sessions.businessId, businessId)))
    .orderBy(refunds.id);
  return rows.map((r) => refundView(r.refund));
}

/**
 * A refund made at the provider outside Kassa (e.g. from the Stripe dashboard), learned from the
 * provider's event: `amountRefunded` is the provider's total for the payment's charge. What Kassa
 * does not know of yet is recorded as a succeeded refund, debited from the business balance like
 * any refund, with the `refunded` event. Idempotent: a total already known changes nothing.
 * Throws InsufficientFundsError when the balance cannot cover it (the event's job retries later).
 */
export async function recordProviderRefund(
  db: Db,
  sessionId: string,
  providerPaymentId: string,
  amountRefunded: number,
): Promise<Refund | null> {
  return transactionWithJobs(db, async (tx) => {
    const { session, business, payment } = await lockSession(tx, sessionId);
    if (!payment || payment.providerPaymentId !== providerPaymentId || payment.status !== "succeeded")
      return null;
    const [known] = await tx
      .select({ total: sql<number>`coalesce(sum(${refunds.amount}), 0)::int` })
      .from(refunds)
      .where(
        and(
          eq(refunds.paymentId, payment.id),
          eq(refunds.providerPaymentId, providerPaymentId),
          ne(refunds.status, "failed"),
        ),
      );
    const extra = Math.min(amountRefunded - (known?.total ?? 0), payment.amount - payment.refundedAmount);
    if (extra <= 0) return null;
    const id = newId("refund");
    const ledgerAmount = await ledgerShare(tx, payment, extra);
    let ledgerTransactionId: string | null = null;
    if (ledgerAmount > 0)
      ledgerTransactionId = (
        await postTransaction(tx, {
          businessId: payment.businessId,
          kind: "refund",
          reference: id,
          entries: [
            { account: { kind: "business_balance" }, amount: -ledgerAmount },
            { account: { kind: "external" }, amount: ledgerAmount },
          ],
        })
      ).transactionId;
    const [refund] = await tx
      .insert(refunds)
      .values({
        id,
        businessId: payment.businessId,
        paymentId: payment.id,
        sessionId: payment.sessionId,
        provider: payment.provider ?? "stripe",
        providerPaymentId,
        amount: extra,
        ledgerAmount,
        status: "succeeded",
        reason: "provider_initiated",
        ledgerTransactionId,
        completedAt: new Date().toISOString(),
      })
      .returning();
    const [updated] = await tx
      .update(payments)
      .set({ refundedAmount: sql`${payments.refundedAmount} + ${extra}`, updatedAt: sql`now()` })
      .where(eq(payments.id, payment.id))
      .returning();
    await emitWebhookEvent(tx, { business, session, payment: updated!, type: "refunded" });
    await cancelRefundedSubscription(tx, business, payment.id);
    return refund!;
  });
}
