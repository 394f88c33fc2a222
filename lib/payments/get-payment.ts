import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payments, sessions, type Business, type Payment, type Session } from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { PaymentNotFoundError } from "@/lib/errors";
import { isoMicros, parseDbTime } from "@/lib/time";
import type { PaymentView } from "./payment-schemas";
import { preparedPerDb } from "@/db/prepared-per-db";
import { keyCheckValues, keyStillValidSql, StaleKeyError, type KeyCheck } from "@/lib/auth/api-key-cache";

/** The interface's Payment object (its schema: lib/payments/payment-schemas.ts). */
export type { PaymentView };

/** An unpaid session past its lifetime reads as expired even before the expiry job has run. */
export function sessionExpired(
  session: Pick<Session, "expiresAt">,
  business: Pick<Business, "clockOffsetMs">,
) {
  return parseDbTime(session.expiresAt).getTime() <= businessNow(business).getTime();
}

/**
 * A payment declined after its charge (review declined, or the highest risk signal) was refunded
 * in full and credited nothing: its net is 0, not the net of the refunded charge. A payment
 * declined before any charge keeps null (nothing was calculated).
 */
function netAmountOf(payment: Payment | null): number | null {
  if (!payment || payment.netAmount === null) return null;
  return payment.status === "declined" ? 0 : payment.netAmount;
}

export function paymentView(session: Session, payment: Payment | null, business: Business): PaymentView {
  const status = payment?.status ?? (sessionExpired(session, business) ? "expired" : null);
  return {
    session_id: session.id,
    status,
    amount: payment?.amount ?? session.amount,
    fees: payment?.fees ?? null,
    net_amount: netAmountOf(payment),
    currency: session.currency,
    order_id: session.orderId,
    customer: session.customer,
    description: session.description ?? "",
    items: session.items,
    metadata: session.metadata,
    payment_method: payment?.paymentMethod ?? null,
    provider: payment?.provider ?? null,
    created_at: isoMicros(session.createdAt),
    customer_details: payment?.customerDetails ?? null,
    payment_details: payment?.paymentDetails ?? null,
    ip: payment?.ip ?? null,
    country: payment?.country ?? null,
    user_agent: payment?.userAgent ?? null,
  };
}

/**
 * The session and its payment as a prepared query: its SQL is built once per database handle. The
 * checked one also reads a cached API key's check in the same snapshot (decision 0081).
 */
const lookup = <Extra extends { keyValid?: SQL<boolean> }>(name: string, extra: Extra) =>
  preparedPerDb((db: Db) =>
    db
      .select({ session: sessions, payment: payments, ...extra })
      .from(sessions)
      .leftJoin(payments, eq(payments.sessionId, sessions.id))
      .where(and(eq(sessions.id, sql.placeholder("sessionId")), eq(sessions.businessId, sql.placeholder("businessId"))))
      .limit(1)
      .prepare(name),
  );
const paymentLookup = lookup("kassa_payment_lookup", {});
const checkedPaymentLookup = lookup("kassa_payment_lookup_key_checked", { keyValid: sql<boolean>`${keyStillValidSql}` });

const sessionIdPattern = /^cs_[0-9A-Za-z]{1,64}$/;

/** GET /payment/{session_id}: another business's session is as unknown as a missing one. */
export async function getPayment(
  db: Db,
  business: Business,
  sessionId: string,
  keyCheck: KeyCheck | null = null,
): Promise<PaymentView> {
  // Not one of our ids (too long, NUL, slashes, ...): nothing to look up, and Postgres never sees it.
  // (With a cached key, a 404 is no proof the key still holds: it is checked afresh first.)
  if (!sessionIdPattern.test(sessionId)) throw keyCheck ? new StaleKeyError() : new PaymentNotFoundError();
  if (keyCheck) {
    const [checked] = await checkedPaymentLookup(db).execute({ sessionId, businessId: business.id, ...keyCheckValues(keyCheck) });
    // No row says nothing of the key, a row with keyValid false that it changed: read it afresh.
    if (!checked?.keyValid) throw new StaleKeyError();
    return paymentView(checked.session, checked.payment, business);
  }
  const [row] = await paymentLookup(db).execute({ sessionId, businessId: business.id });
  if (!row) throw new PaymentNotFoundError();
  return paymentView(row.session, row.payment, business);
}
