import { and, desc, eq, lt, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
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
  PaymentNotFoundError,
  ProviderError,
  ValidationError,
} from "@/lib/errors";
import { newId } from "@/lib/ids";
import { enqueueJob, transactionWithJobs } from "@/lib/jobs/enqueue-job";
import type { JobHandler } from "@/lib/jobs/job-outcome";
import { postTransaction } from "@/lib/ledger/post-transaction";
import { log } from "@/lib/log";
import { providerFor } from "@/lib/providers/provider-for";
import type { RefundOutcome, RefundRequest } from "@/lib/providers/types";
import { cancelRefundedSubscription } from "@/lib/subscriptions/cancel-refunded-subscription";
import { billingFor } from "@/lib/subscriptions/set-up-subscription";
import { isoMicros } from "@/lib/time";
import type { RefundList, RefundView } from "./payment-schemas";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";
import { lockSession, sessionIdPattern } from "./payment-records";

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
  /** The merchant's note: kept on the refund and sent to the provider (metadata `kassa_reason`). */
  note?: string;
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
      note: input.note || null,
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
 * longer pending is returned as is, and the provider call carries the refund id as its key; a
 * refund the provider answered `pending` (it has a provider id) is re-read instead (syncRefund).
 * Throws ProviderError when the provider cannot be reached (the refund stays pending; its job retries).
 * The note sent is the refund's own; `options.note` only serves jobs queued before notes were kept.
 */
export async function executeRefund(
  db: Db,
  refundId: string,
  options: { note?: string } = {},
): Promise<Refund> {
  const [row] = await db
    .select({ refund: refunds, business: businesses })
    .from(refunds)
    .innerJoin(businesses, eq(businesses.id, refunds.businessId))
    .where(eq(refunds.id, refundId))
    .limit(1);
  if (!row) throw new Error(`No refund ${refundId}`);
  if (row.refund.status !== "pending") return row.refund;
  if (row.refund.providerRefundId) return syncRefund(db, refundId);
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
      ...((row.refund.note ?? options.note) ? { kassa_reason: row.refund.note ?? options.note } : {}),
    },
  });
  return applyRefundOutcome(db, refundId, outcome);
}

/**
 * Re-reads a refund at its provider and records what it says now (outside any transaction; the
 * row is then locked, read fresh and decided on): a pending refund succeeds or fails, and a
 * succeeded one that the provider now says failed (a card refund can, days later) is reversed.
 * A refund without a provider id, or at a provider whose refunds are final, is returned as is.
 * Throws ProviderError when the provider cannot be reached.
 */
export async function syncRefund(db: Db, refundId: string): Promise<Refund> {
  const [row] = await db
    .select({ refund: refunds, business: businesses })
    .from(refunds)
    .innerJoin(businesses, eq(businesses.id, refunds.businessId))
    .where(eq(refunds.id, refundId))
    .limit(1);
  if (!row) throw new Error(`No refund ${refundId}`);
  const { refund } = row;
  if (refund.status === "failed" || !refund.providerRefundId) return refund;
  const provider = await providerFor(db, row.business, refund.provider);
  if (!provider.retrieveRefund) return refund;
  return applyRefundOutcome(db, refundId, await provider.retrieveRefund(refund.providerRefundId));
}

/**
 * Records a provider's answer about a refund, under the session and refund locks, reading the row
 * fresh: pending → succeeded (the `refunded` webhook, once), pending or succeeded → failed (the
 * balance debit credited back, once: a failed refund is never changed again), pending → pending
 * (the provider id kept; the `refund_payment` job re-reads it). Anything else changes nothing.
 */
async function applyRefundOutcome(db: Db, refundId: string, outcome: RefundOutcome): Promise<Refund> {
  return transactionWithJobs(db, async (tx) => {
    const [current] = await tx
      .select({ sessionId: refunds.sessionId })
      .from(refunds)
      .where(eq(refunds.id, refundId));
    if (!current) throw new Error(`No refund ${refundId}`);
    const { session, business, payment } = await lockSession(tx, current.sessionId);
    const [refund] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for("update");
    if (!refund || refund.status === "failed" || !payment) return refund!;
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
          providerRefundId: outcome.providerRefundId ?? refund.providerRefundId,
          reversalTransactionId: reversal,
          failureMessage: outcome.failure.message,
          updatedAt: sql`now()`,
          completedAt: sql`now()`,
        })
        .where(eq(refunds.id, refundId))
        .returning();
      log.warn(
        refund.status === "succeeded"
          ? "refund failed at the provider after it succeeded"
          : "refund refused by the provider",
        { refundId, failure: outcome.failure },
      );
      return failed!;
    }
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
        completedAt: sql`now()`,
      })
      .where(eq(refunds.id, refundId))
      .returning();
    // Fraud declines announce themselves with `declined`; duplicates are Kassa's own business.
    if (refund.reason === "requested_by_merchant" || refund.reason === "provider_initiated") {
      await emitWebhookEvent(tx, {
        business,
        session,
        payment,
        type: "refunded",
        refund: {
          id: done!.id,
          amount: done!.amount,
          amountRefunded: await succeededRefundTotal(tx, payment.id),
        },
      });
      await cancelRefundedSubscription(tx, business, payment.id);
    }
    return done!;
  });
}

/** The refund of a provider's refund id, if Kassa made it (inbound events name refunds by it). */
export async function findRefundByProviderId(
  db: Db,
  businessId: string,
  provider: string,
  providerRefundId: string,
): Promise<Refund | null> {
  const [refund] = await db
    .select()
    .from(refunds)
    .where(
      and(
        eq(refunds.businessId, businessId),
        eq(refunds.provider, provider),
        eq(refunds.providerRefundId, providerRefundId),
      ),
    )
    .limit(1);
  return refund ?? null;
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
  // Jobs queued before migration 0011 carry the note in their payload.
  const note = typeof job.payload.note === "string" ? job.payload.note : undefined;
  try {
    const refund = await executeRefund(db, refundId, { note });
    // The provider answered pending: read it again later, backing off from 5 minutes to 6 hours
    // (about 4 days over the job's 20 attempts); the provider's events settle it sooner.
    if (refund.status === "pending" && refund.providerRefundId) {
      const delayMs = Math.min(5 * 60_000 * 2 ** Math.min(Math.max(job.attempts - 1, 0), 7), 6 * 3_600_000);
      return { status: "retry", at: new Date(Date.now() + delayMs), note: "refund pending at the provider" };
    }
    return { status: "done", note: `refund ${refund.status}` };
  } catch (error) {
    if (error instanceof ProviderError)
      return { status: "retry", at: new Date(Date.now() + 5 * 60_000), note: error.message };
    throw error;
  }
};

/** The API's Refund object (decision 0015; its schema: lib/payments/payment-schemas.ts). */
export type { RefundView };

export function refundView(
  refund: Refund,
  payment: { currency: string; amountRefunded: number },
): RefundView {
  return {
    id: refund.id,
    session_id: refund.sessionId,
    amount: refund.amount,
    currency: payment.currency,
    status: refund.status,
    reason: refund.reason,
    note: refund.note,
    balance_debit: refund.ledgerAmount,
    amount_refunded: payment.amountRefunded,
    failure_message: refund.status === "failed" ? (refund.failureMessage ?? "Refused by the provider") : null,
    created_at: isoMicros(refund.createdAt),
    completed_at: refund.completedAt ? isoMicros(refund.completedAt) : null,
  };
}

/** Cents of a payment's refunds that succeeded, counting against its amount (the `refunded` payload's total). */
async function succeededRefundTotal(tx: Db, paymentId: string): Promise<number> {
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

export type RefundPaymentInput = {
  /** Cents to refund; what is left to refund when absent. */
  amount?: number;
  /** The merchant's note: kept on the refund (`note`) and sent to the provider as metadata. */
  note?: string;
};

/** Why a payment that exists cannot be refunded (409 `payment_not_refundable`). */
function notRefundable(payment: Payment | null): ConflictError {
  const why =
    payment?.status === "pending_review"
      ? "it is held for review: accept or decline it (POST /payments/{session_id}/review); declining refunds it"
      : payment?.status === "declined"
        ? "it was declined, and the customer was refunded automatically"
        : `it has not succeeded (status ${payment?.status ?? "none: no payment was made"})`;
  return new ConflictError("payment_not_refundable", `This payment cannot be refunded: ${why}`);
}

/**
 * Reserves a merchant refund (first half of refundPayment): under the session lock, checks the
 * payment and what is left, debits the business balance and records the refund `pending`. Runs in
 * its own transaction, or a savepoint of the caller's (the API's Idempotency-Key transaction).
 * The caller executes it at the provider after commit (executeRefund).
 */
export async function reserveMerchantRefund(
  db: Db,
  businessId: string,
  sessionId: string,
  input: RefundPaymentInput = {},
  /** From prepareMerchantRefund, when the caller is already inside a transaction (the API's key). */
  prepared?: PreparedRefund,
): Promise<Refund> {
  if (input.amount !== undefined && (!Number.isSafeInteger(input.amount) || input.amount < 1))
    throw ValidationError.field("amount", "amount must be a positive integer (cents)");
  const { renewalIntent } = prepared ?? (await prepareMerchantRefund(db, businessId, sessionId));
  return transactionWithJobs(db, async (tx) => {
    const { payment } = await lockSession(tx, sessionId, businessId);
    if (!payment || payment.status !== "succeeded" || !payment.providerPaymentId || !payment.provider)
      throw notRefundable(payment);
    const refundable = payment.amount - payment.refundedAmount;
    if (refundable <= 0)
      throw new ConflictError("payment_fully_refunded", "This payment has been refunded in full");
    const amount = input.amount ?? refundable;
    if (amount > refundable)
      throw new BadRequestError(
        "amount_exceeds_refundable",
        `amount may be at most ${refundable} cents: the payment is ${payment.amount} and ${payment.refundedAmount} is already refunded`,
      );
    let providerPaymentId = payment.providerPaymentId;
    if (isInvoiceId(providerPaymentId)) {
      if (!renewalIntent || renewalIntent.invoiceId !== providerPaymentId)
        throw new ConflictError(
          "payment_not_refundable",
          "This renewal's charge could not be found at Stripe (its invoice has no succeeded PaymentIntent); retry later",
        );
      providerPaymentId = renewalIntent.paymentIntentId;
    }
    const refund = await reserveRefund(tx, {
      payment,
      provider: payment.provider,
      providerPaymentId,
      amount,
      reason: "requested_by_merchant",
      ledgerAmount: await ledgerShare(tx, payment, amount),
      note: input.note,
    });
    await recordAudit(tx, { businessId, action: "payment.refund", target: { type: "payment", id: sessionId }, changes: { refunded_amount: { from: payment.refundedAmount, to: payment.refundedAmount + amount }, refund: { from: null, to: refund.id } } });
    return refund;
  });
}

const isInvoiceId = (id: string) => id.startsWith("in_");

/** What a refund needs from the provider before its reservation. */
export type PreparedRefund = { renewalIntent: { invoiceId: string; paymentIntentId: string } | null };

/**
 * The provider reads a refund needs before the reservation, outside any transaction: a renewal is
 * charged by the subscription's invoice at Stripe, and its refund goes to the invoice's
 * PaymentIntent. Nothing for other payments. Throws ProviderError when Stripe cannot answer.
 */
export async function prepareMerchantRefund(
  db: Db,
  businessId: string,
  sessionId: string,
): Promise<PreparedRefund> {
  return { renewalIntent: await renewalPaymentIntent(db, businessId, sessionId) };
}

/** A succeeded renewal's invoice and the PaymentIntent that paid it; null for any other payment. */
async function renewalPaymentIntent(
  db: Db,
  businessId: string,
  sessionId: string,
): Promise<{ invoiceId: string; paymentIntentId: string } | null> {
  if (!sessionIdPattern.test(sessionId)) return null;
  const [payment] = await db
    .select({
      provider: payments.provider,
      providerPaymentId: payments.providerPaymentId,
      status: payments.status,
    })
    .from(payments)
    .where(and(eq(payments.sessionId, sessionId), eq(payments.businessId, businessId)))
    .limit(1);
  if (payment?.status !== "succeeded" || payment.provider !== "stripe" || !payment.providerPaymentId)
    return null;
  if (!isInvoiceId(payment.providerPaymentId)) return null;
  const billing = await billingFor(db, businessId);
  const invoice = await billing.retrieveInvoice(payment.providerPaymentId);
  return invoice.paymentIntentId ? { invoiceId: invoice.id, paymentIntentId: invoice.paymentIntentId } : null;
}

/** The Refund object of a refund, with its payment's currency and refunded total as they are now. */
export async function readRefund(db: Db, refundId: string): Promise<RefundView> {
  const [row] = await db
    .select({ refund: refunds, currency: sessions.currency, refunded: payments.refundedAmount })
    .from(refunds)
    .innerJoin(sessions, eq(sessions.id, refunds.sessionId))
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(eq(refunds.id, refundId))
    .limit(1);
  if (!row) throw new Error(`No refund ${refundId}`);
  return refundView(row.refund, { currency: row.currency, amountRefunded: row.refunded });
}

/**
 * Executes a reserved refund at its provider now and answers its Refund object: `succeeded`,
 * `failed` (refused, balance restored), or `pending` (provider unreachable: its job retries).
 */
export async function completeRefund(db: Db, refundId: string): Promise<RefundView> {
  try {
    await executeRefund(db, refundId);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    log.warn("refund deferred to its job", { refundId, error });
  }
  return readRefund(db, refundId);
}

/**
 * Refunds a succeeded payment in full (no amount) or in part, at its provider. The sum of refunds
 * never exceeds the payment (400 `amount_exceeds_refundable`, 409 `payment_fully_refunded`); only
 * a succeeded payment is refundable (409 `payment_not_refundable`); the business balance must hold
 * the refunded share of the net amount (else 400 `insufficient_balance`, nothing refunded).
 */
export async function refundPayment(
  db: Db,
  businessId: string,
  sessionId: string,
  input: RefundPaymentInput = {},
): Promise<RefundView> {
  const refund = await reserveMerchantRefund(db, businessId, sessionId, input);
  return completeRefund(db, refund.id);
}

/**
 * Refunds of a session's payment, newest first, a page at a time (`limit`, `starting_after` a
 * refund id: the refunds created before it). Another business's session, or an unknown one, is
 * PaymentNotFoundError (404), like GET /payment.
 */
export async function listRefunds(
  db: Db,
  businessId: string,
  sessionId: string,
  page: { limit: number; starting_after?: string } = { limit: 100 },
): Promise<RefundList> {
  if (!sessionIdPattern.test(sessionId)) throw new PaymentNotFoundError();
  const [session] = await db
    .select({ currency: sessions.currency, refunded: payments.refundedAmount })
    .from(sessions)
    .leftJoin(payments, eq(payments.sessionId, sessions.id))
    .where(and(eq(sessions.id, sessionId), eq(sessions.businessId, businessId)))
    .limit(1);
  if (!session) throw new PaymentNotFoundError();
  const rows = await db
    .select()
    .from(refunds)
    .where(
      and(
        eq(refunds.sessionId, sessionId),
        page.starting_after ? lt(refunds.id, page.starting_after) : undefined,
      ),
    )
    .orderBy(desc(refunds.id))
    .limit(page.limit + 1);
  return {
    data: rows
      .slice(0, page.limit)
      .map((r) => refundView(r, { currency: session.currency, amountRefunded: session.refunded ?? 0 })),
    has_more: rows.length > page.limit,
  };
}

/** Executes the pending refunds of a session (after the commit that reserved them). */
export async function executePendingRefunds(db: Db, sessionId: string): Promise<void> {
  const pending = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.sessionId, sessionId), eq(refunds.status, "pending")));
  await executeRefundsNow(
    db,
    pending.map((r) => r.id),
  );
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
    await emitWebhookEvent(tx, {
      business,
      session,
      payment: updated!,
      type: "refunded",
      refund: { id, amount: extra, amountRefunded: await succeededRefundTotal(tx, payment.id) },
    });
    await cancelRefundedSubscription(tx, business, payment.id);
    return refund!;
  });
}
