import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payments, refunds, type Refund } from "@/db/schema";
import { newId } from "@/lib/ids";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { lockSession } from "../payment-records";
import { announceRefund } from "./announce-refund";
import { debitForRefund, ledgerShare } from "./reserve-refund";
import { businessNowSql } from "@/lib/clock";

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

/** Cents of a provider payment's refunds Kassa knows of (failed ones aside). */
async function knownRefunds(tx: Db, paymentId: string, providerPaymentId: string): Promise<number> {
  const [known] = await tx
    .select({ total: sql<number>`coalesce(sum(${refunds.amount}), 0)::int` })
    .from(refunds)
    .where(
      and(
        eq(refunds.paymentId, paymentId),
        eq(refunds.providerPaymentId, providerPaymentId),
        ne(refunds.status, "failed"),
      ),
    );
  return known?.total ?? 0;
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
    const known = await knownRefunds(tx, payment.id, providerPaymentId);
    const extra = Math.min(amountRefunded - known, payment.amount - payment.refundedAmount);
    if (extra <= 0) return null;
    const id = newId("refund");
    const ledgerAmount = await ledgerShare(tx, payment, extra);
    const ledgerTransactionId =
      ledgerAmount > 0 ? await debitForRefund(tx, payment.businessId, id, ledgerAmount) : null;
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
        createdAt: businessNowSql(payment.businessId),
        completedAt: businessNowSql(payment.businessId),
      })
      .returning();
    const [updated] = await tx
      .update(payments)
      .set({ refundedAmount: sql`${payments.refundedAmount} + ${extra}`, updatedAt: sql`now()` })
      .where(eq(payments.id, payment.id))
      .returning();
    await announceRefund(tx, { business, session, payment: updated!, refund: refund! });
    return refund!;
  });
}
