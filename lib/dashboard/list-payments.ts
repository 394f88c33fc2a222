import { and, asc, desc, eq, gt, gte, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "@/db/client";
import { businesses, payments, sessions, type Business, type Payment, type Session } from "@/db/schema";
import { disputesOfSessions, sessionDisputed, type PaymentDispute } from "@/lib/disputes/dispute-filter";
import { businessNow } from "@/lib/clock";
import { NotFoundError } from "@/lib/errors";
import { paymentView, type PaymentView } from "@/lib/payments/get-payment";
import { paymentSearchMatches } from "@/lib/payments/payment-search";
import { toDbTime } from "@/lib/time";
import type { PaymentFilters } from "./payment-filters";

/**
 * A payment as the dashboard lists it: the interface's Payment (its status the interface's: a
 * disputed payment reads `succeeded`) plus what is refunded (cents) and its dispute, if any.
 */
export type ListedPayment = PaymentView & { refunded_amount: number; dispute: PaymentDispute | null };

/** The listed form of a session and its payment (refunded 0 before any refund). */
export function listedPayment(
  session: Session,
  payment: Payment | null,
  business: Business,
  dispute: PaymentDispute | null = null,
): ListedPayment {
  return { ...paymentView(session, payment, business), refunded_amount: payment?.refundedAmount ?? 0, dispute };
}

/** Rows of sessions and payments as listed, each with its dispute (one query for all of them). */
export async function listedPayments(
  db: Db,
  business: Business,
  rows: { session: Session; payment: Payment | null }[],
): Promise<ListedPayment[]> {
  const disputed = await disputesOfSessions(db, business.id, rows.map((r) => r.session.id));
  return rows.map((r) => listedPayment(r.session, r.payment, business, disputed.get(r.session.id) ?? null));
}

export type PaymentListPage = {
  data: ListedPayment[];
  /** Cursors for the neighbouring pages (session ids), null at either end. */
  next: string | null;
  previous: string | null;
};

export const defaultPageSize = 25;

/**
 * A business with at most this many sessions is searched by reading its own rows (the page's
 * query with the whole match as one filter), not through the trigram indexes: their cost grows
 * with the install's rows (a common trigram's posting list covers every business), this one only
 * with the business's (decision 0057).
 */
export const paymentSearch = {
  walkLimit: 2000,
};

/** Whether the business has at most `walkLimit` sessions (reads at most one more than that). */
async function fewSessions(db: Db, businessId: string): Promise<boolean> {
  const limit = paymentSearch.walkLimit;
  if (limit <= 0) return false;
  const [row] = await queryRows<{ n: number }>(
    db,
    // In id order: an index's walk that stops at the limit (sessions_business_id_idx, or the primary
    // key when one business holds most rows), never a scan of the table that hopes to stop early.
    sql`SELECT count(*)::int AS n FROM (SELECT ${sessions.id} FROM ${sessions}
        WHERE ${sessions.businessId} = ${businessId} ORDER BY ${sessions.id} LIMIT ${limit + 1}) AS s`,
  );
  return (row?.n ?? 0) <= limit;
}

/**
 * The search `q` (paymentSearchMatches) for a business with many sessions. The matches of the session's
 * columns and those of the payer's e-mail are two queries, each on its own trigram indexes (decision 0082;
 * an OR across the two tables can use none), each its first `limit` rows in the page's order with
 * every other condition: the page's rows are among those (UNION ALL), looked up by id.
 */
function searchedIds(db: Db, q: string, conditions: (SQL | undefined)[], order: SQL, limit: number): SQL {
  const matches = paymentSearchMatches(q).map(
    (match) =>
      sql`(${db
        .select({ id: sessions.id })
        .from(sessions)
        .leftJoin(payments, eq(payments.sessionId, sessions.id))
        .where(and(...conditions, match))
        .orderBy(order)
        .limit(limit)})`,
  );
  return sql`${sessions.id} IN (${sql.join(matches, sql` UNION ALL `)})`;
}

/**
 * A business's payments (one per session, as GET /payment/{session_id} shows them), newest first,
 * a page at a time: `after` the last row of a page for the next one, `before` the first row for
 * the previous one. Session ids sort by creation time, so they are the cursor.
 */
export async function listPayments(
  db: Db,
  businessId: string,
  filters: PaymentFilters = {},
  limit = defaultPageSize,
): Promise<PaymentListPage> {
  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId));
  if (!business) throw new NotFoundError("business_not_found", "No such business");
  const now = toDbTime(businessNow(business));
  const size = Math.min(Math.max(Math.trunc(limit), 1), 100);

  const conditions: (SQL | undefined)[] = [eq(sessions.businessId, businessId)];
  if (filters.status === "open") {
    conditions.push(isNull(payments.status), gt(sessions.expiresAt, now));
  } else if (filters.status === "expired") {
    // An unpaid session past its lifetime reads as expired before the expiry job runs (getPayment).
    conditions.push(
      or(eq(payments.status, "expired"), and(isNull(payments.status), lte(sessions.expiresAt, now))),
    );
  } else if (filters.status) {
    conditions.push(eq(payments.status, filters.status));
  }
  if (filters.method) conditions.push(eq(payments.paymentMethod, filters.method));
  if (filters.dispute) conditions.push(sessionDisputed(filters.dispute));
  if (filters.from) conditions.push(gte(sessions.createdAt, `${filters.from}T00:00:00Z`));
  if (filters.to) conditions.push(lt(sessions.createdAt, sql`(${filters.to}::date + 1)::timestamptz`));

  const backwards = Boolean(filters.before);
  if (filters.after) conditions.push(lt(sessions.id, filters.after));
  if (filters.before) conditions.push(gt(sessions.id, filters.before));

  const order = backwards ? asc(sessions.id) : desc(sessions.id);
  const q = filters.q?.trim();
  const walked = q ? await fewSessions(db, businessId) : false;
  if (q)
    conditions.push(
      walked ? or(...paymentSearchMatches(q)) : searchedIds(db, q, conditions, order, size + 1),
    );
  const rows = await db
    .select({ session: sessions, payment: payments })
    .from(sessions)
    .leftJoin(
      payments,
      // Walked: the business's payments read as one range of payments_business_session_idx.
      and(eq(payments.sessionId, sessions.id), walked ? eq(payments.businessId, businessId) : undefined),
    )
    .where(and(...conditions))
    .orderBy(order)
    .limit(size + 1);

  const more = rows.length > size;
  const page = rows.slice(0, size);
  if (backwards) page.reverse();
  const data = await listedPayments(db, business, page);
  const first = data[0]?.session_id ?? null;
  const last = data.at(-1)?.session_id ?? null;
  // Going forwards, a previous page exists when we came from one; going backwards, a next one does.
  return {
    data,
    next: backwards ? last : more ? last : null,
    previous: backwards ? (more ? first : null) : filters.after ? first : null,
  };
}
