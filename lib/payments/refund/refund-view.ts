import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payments, refunds, sessions, type Refund } from "@/db/schema";
import { PaymentNotFoundError } from "@/lib/errors";
import { isoMicros } from "@/lib/time";
import type { RefundList, RefundView } from "../payment-schemas";
import { sessionIdPattern } from "../payment-records";

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
