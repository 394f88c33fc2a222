import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payments, sessions, subscriptionCycles, type Payment, type SubscriptionCycle } from "@/db/schema";
import { findSubscription } from "@/lib/subscriptions/subscription-records";
import { subscriptionView, type SubscriptionView } from "@/lib/subscriptions/subscription-view";
import { isoMicros } from "@/lib/time";

/** One billing cycle: the signup (cycle 1) or a renewal invoice, with the payment it made if any. */
export type SubscriptionCycleView = {
  cycle: number;
  kind: "signup" | "renewal";
  /** The renewal invoice's state at the provider (`paid` for the signup). */
  invoice_status: SubscriptionCycle["status"] | "paid";
  period_end: string | null;
  created_at: string;
  /** The session of the cycle's payment (the payment page's id), null while none was made. */
  session_id: string | null;
  order_id: string | null;
  payment: { status: Payment["status"]; amount: number; currency: string; refunded_amount: number } | null;
};

export type SubscriptionDetail = { subscription: SubscriptionView; cycles: SubscriptionCycleView[] };

/**
 * A subscription of the business with its cycles, newest first: the signup payment (cycle 1) and
 * each renewal the provider invoiced, linked to the payment each made. Another business's
 * subscription is as unknown as a missing one (SubscriptionNotFoundError).
 */
export async function getSubscriptionDetail(db: Db, businessId: string, subscriptionId: string): Promise<SubscriptionDetail> {
  const row = await findSubscription(db, subscriptionId, businessId);
  const renewals = await db
    .select()
    .from(subscriptionCycles)
    .where(eq(subscriptionCycles.subscriptionId, row.id))
    .orderBy(asc(subscriptionCycles.cycle));
  const sessionIds = [row.initialSessionId, ...renewals.flatMap((c) => (c.sessionId ? [c.sessionId] : []))];
  const paid = await db
    .select({ session: sessions, payment: payments })
    .from(sessions)
    .leftJoin(payments, eq(payments.sessionId, sessions.id))
    .where(and(eq(sessions.businessId, businessId), inArray(sessions.id, sessionIds)));
  const bySession = new Map(paid.map((p) => [p.session.id, p]));
  const paymentOf = (sessionId: string | null) => {
    const found = sessionId ? bySession.get(sessionId) : undefined;
    if (!found) return { order_id: null, payment: null };
    return {
      order_id: found.session.orderId,
      payment: found.payment
        ? {
            status: found.payment.status,
            amount: found.payment.amount,
            currency: found.session.currency,
            refunded_amount: found.payment.refundedAmount,
          }
        : null,
    };
  };

  const signup = bySession.get(row.initialSessionId);
  const cycles: SubscriptionCycleView[] = [
    {
      cycle: 1,
      kind: "signup",
      invoice_status: "paid",
      period_end: null,
      created_at: isoMicros(signup?.payment?.createdAt ?? row.createdAt),
      session_id: row.initialSessionId,
      ...paymentOf(row.initialSessionId),
    },
    ...renewals.map(
      (c): SubscriptionCycleView => ({
        cycle: c.cycle,
        kind: "renewal",
        invoice_status: c.status,
        period_end: c.periodEnd === null ? null : isoMicros(c.periodEnd),
        created_at: isoMicros(c.createdAt),
        session_id: c.sessionId,
        ...paymentOf(c.sessionId),
      }),
    ),
  ];
  return { subscription: subscriptionView(row), cycles: cycles.reverse() };
}
