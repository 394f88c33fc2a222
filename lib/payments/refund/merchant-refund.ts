import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { disputes, payments, type Payment, type Refund } from "@/db/schema";
import { isChargeback } from "@/lib/disputes/dispute-view";
import { BadRequestError, ConflictError, ProviderError, ValidationError } from "@/lib/errors";
import { isSafeText, safeText } from "@/lib/http/validation";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { log } from "@/lib/log";
import { billingFor } from "@/lib/subscriptions/set-up-subscription";
import { maxRefundNoteLength } from "../operation-input";
import { lockSession, sessionIdPattern } from "../payment-records";
import { executeRefund } from "./execute-refund";
import { ledgerShare, reserveRefund } from "./reserve-refund";
import { readRefund, type RefundView } from "./refund-view";

/**
 * A merchant's refund, one operation in three phases, run alike by the API (the reservation
 * inside its Idempotency-Key transaction) and the dashboard (refundPayment):
 * 1. prepareMerchantRefund: the provider reads, outside any transaction;
 * 2. reserveMerchantRefund: under the session lock, the checks, the balance debit, the refund `pending`;
 * 3. completeRefund: after commit, the refund executed at the provider.
 */

export type RefundPaymentInput = {
  /** Cents to refund; what is left to refund when absent. */
  amount?: number;
  /** The merchant's note: kept on the refund (`note`) and sent to the provider as metadata. */
  note?: string;
};

/** What a refund needs from the provider before its reservation. */
export type PreparedRefund = { renewalIntent: { invoiceId: string; paymentIntentId: string } | null };

const isInvoiceId = (id: string) => id.startsWith("in_");

/** Why a payment that exists cannot be refunded (409 `payment_not_refundable`). */
export function notRefundable(payment: Payment | null, chargeback?: { id: string }): ConflictError {
  const why = chargeback
    ? `it was disputed and charged back (dispute ${chargeback.id}): the provider refuses to refund a charged-back payment, and the dispute decides where the money goes; answer or accept it instead`
    : payment?.status === "pending_review"
      ? "it is held for review: accept or decline it (POST /payments/{session_id}/review); declining refunds it"
      : payment?.status === "declined"
        ? "it was declined, and the customer was refunded automatically"
        : `it has not succeeded (status ${payment?.status ?? "none: no payment was made"})`;
  return new ConflictError("payment_not_refundable", `This payment cannot be refunded: ${why}`);
}

/** The API's rules for the input, for every caller (the dashboard's form included). */
function checkInput(input: RefundPaymentInput): void {
  if (input.amount !== undefined && (!Number.isSafeInteger(input.amount) || input.amount < 1))
    throw ValidationError.field("amount", "amount must be a positive integer (cents)");
  if (input.note !== undefined && !isSafeText(input.note))
    throw ValidationError.field("reason", `reason ${safeText.error}`);
  if (input.note !== undefined && input.note.length > maxRefundNoteLength)
    throw ValidationError.field("reason", `reason must be at most ${maxRefundNoteLength} characters`);
}

/**
 * Phase 1. The provider reads a refund needs before the reservation, outside any transaction: a
 * renewal is charged by the subscription's invoice at Stripe, and its refund goes to the invoice's
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

/**
 * The session's chargeback, if it has one: Stripe refuses to refund a charged-back charge
 * (`charge_disputed`), so Kassa refuses first, before reserving anything.
 */
export async function findChargeback(db: Db, sessionId: string): Promise<{ id: string } | undefined> {
  const rows = await db
    .select({ id: disputes.id, status: disputes.status })
    .from(disputes)
    .where(eq(disputes.sessionId, sessionId));
  return rows.find((row) => isChargeback(row.status));
}

/**
 * Phase 2. Reserves a merchant refund: under the session lock, checks the payment and what is
 * left, debits the business balance and records the refund `pending`. Runs in its own
 * transaction, or a savepoint of the caller's (the API's Idempotency-Key transaction). The caller
 * executes it at the provider after commit (completeRefund).
 */
export async function reserveMerchantRefund(
  db: Db,
  businessId: string,
  sessionId: string,
  input: RefundPaymentInput = {},
  /** From prepareMerchantRefund, when the caller is already inside a transaction (the API's key). */
  prepared?: PreparedRefund,
): Promise<Refund> {
  checkInput(input);
  const { renewalIntent } = prepared ?? (await prepareMerchantRefund(db, businessId, sessionId));
  return transactionWithJobs(db, async (tx) => {
    const { payment } = await lockSession(tx, sessionId, businessId);
    if (!payment || payment.status !== "succeeded" || !payment.providerPaymentId || !payment.provider)
      throw notRefundable(payment);
    const disputed = await findChargeback(tx, sessionId);
    if (disputed) throw notRefundable(payment, disputed);
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
    await recordAudit(tx, {
      businessId,
      action: "payment.refund",
      target: { type: "payment", id: sessionId },
      changes: {
        refunded_amount: { from: payment.refundedAmount, to: payment.refundedAmount + amount },
        refund: { from: null, to: refund.id },
        refund_status: { from: null, to: refund.status },
      },
    });
    return refund;
  });
}

/**
 * Phase 3. Executes a reserved refund at its provider now and answers its Refund object:
 * `succeeded`, `failed` (refused, balance restored), or `pending` (provider unreachable: its job retries).
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
 * Refunds a succeeded payment in full (no amount) or in part, at its provider: the three phases
 * in a row (the dashboard's refund). The sum of refunds never exceeds the payment (400
 * `amount_exceeds_refundable`, 409 `payment_fully_refunded`); only a succeeded payment is
 * refundable (409 `payment_not_refundable`); the business balance must hold the refunded share of
 * the net amount (else 400 `insufficient_balance`, nothing refunded).
 */
export async function refundPayment(
  db: Db,
  businessId: string,
  sessionId: string,
  input: RefundPaymentInput = {},
): Promise<RefundView> {
  checkInput(input);
  const prepared = await prepareMerchantRefund(db, businessId, sessionId);
  const refund = await reserveMerchantRefund(db, businessId, sessionId, input, prepared);
  return completeRefund(db, refund.id);
}
