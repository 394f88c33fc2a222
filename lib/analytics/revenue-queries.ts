import { and, eq, gte, inArray, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import {
  disputes,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
  payments,
  refunds,
  sessions,
  subscriptionCycles,
  subscriptions,
} from "@/db/schema";
import type { RevenueInterval } from "./revenue-buckets";

// The aggregations behind GET /analytics/revenue (docs/analytics.md), each grouped by the UTC
// calendar bucket (`date_trunc`) of the time it dates its rows by. Every time is a business-clock
// stamp, so a sandbox moved ahead reads on its own clock. The range is [from, until).

export type Range = { businessId: string; interval: RevenueInterval; from: string; until: string };

/** The bucket key (`YYYY-MM-DD` of the calendar start) of a timestamp column or expression. */
const bucketKey = (interval: RevenueInterval, at: SQL | AnyPgColumn) =>
  sql<string>`to_char(date_trunc(${sql.raw(`'${interval}'`)}, (${at}) at time zone 'UTC'), 'YYYY-MM-DD')`;

const within = (at: SQL | AnyPgColumn, range: Range) =>
  and(gte(sql`${at}`, range.from), lt(sql`${at}`, range.until));

const int = (expr: SQL) => sql<string>`coalesce(${expr}, 0)::bigint`;

/** Succeeded payments by completion (the overview's index answers it). */
export async function paymentFigures(db: Db, range: Range) {
  const completed = sql`coalesce(${payments.completedAt}, ${payments.createdAt})`;
  return db
    .select({
      key: bucketKey(range.interval, completed),
      gross: int(sql`sum(${payments.amount})`),
      fees: int(sql`sum(coalesce(${payments.fees}, 0))`),
      count: int(sql`count(*)`),
    })
    .from(payments)
    .where(
      and(
        eq(payments.businessId, range.businessId),
        eq(payments.status, "succeeded"),
        within(completed, range),
      ),
    )
    .groupBy(sql`1`);
}

/** Refunds not failed, of payments gross volume counts (a duplicate charge's refund is not), by creation. */
export async function refundFigures(db: Db, range: Range) {
  return db
    .select({ key: bucketKey(range.interval, refunds.createdAt), refunded: int(sql`sum(${refunds.amount})`) })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(
      and(
        eq(refunds.businessId, range.businessId),
        ne(refunds.status, "failed"),
        ne(refunds.reason, "duplicate"),
        eq(payments.status, "succeeded"),
        within(refunds.createdAt, range),
      ),
    )
    .groupBy(sql`1`);
}

/**
 * What disputes took, from the ledger: the outside world's side of each dispute withdrawal
 * (amount and fee: positive) and reinstatement (negative), by the ledger transaction's time.
 */
export async function disputeFigures(db: Db, range: Range) {
  return db
    .select({
      key: bucketKey(range.interval, ledgerTransactions.createdAt),
      disputed: int(sql`sum(${ledgerEntries.amount})`),
    })
    .from(disputes)
    .innerJoin(
      ledgerTransactions,
      and(
        eq(ledgerTransactions.reference, disputes.id),
        eq(ledgerTransactions.businessId, disputes.businessId),
        inArray(ledgerTransactions.kind, ["dispute_withdrawal", "dispute_reinstatement"]),
      ),
    )
    .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
    .innerJoin(
      ledgerAccounts,
      and(eq(ledgerAccounts.id, ledgerEntries.accountId), eq(ledgerAccounts.kind, "external")),
    )
    .where(and(eq(disputes.businessId, range.businessId), within(ledgerTransactions.createdAt, range)))
    .groupBy(sql`1`);
}

/** A plan's price per month in cents (lib/analytics/revenue-buckets.ts monthlyAmount, in SQL). */
export const monthlySql = (s: {
  unitAmount: AnyPgColumn;
  interval: AnyPgColumn;
  intervalCount: AnyPgColumn;
}) =>
  sql`round(${s.unitAmount}::numeric * (case ${s.interval} when 'day' then 365 when 'week' then 52 when 'month' then 12 else 1 end) / (12 * ${s.intervalCount}))`;

/** Plans that count: all but those Kassa voided at signup (signup refunded, setup failed). */
const counted = (s: { businessId: AnyPgColumn; canceledBy: AnyPgColumn }, businessId: string) =>
  and(eq(s.businessId, businessId), or(isNull(s.canceledBy), ne(s.canceledBy, "system")));

/** Plans counted at `from`: the series' starting MRR and count. */
export async function subscriptionsAt(db: Db, range: Range) {
  const [row] = await db
    .select({ count: int(sql`count(*)`), mrr: int(sql`sum(${monthlySql(subscriptions)})`) })
    .from(subscriptions)
    .where(
      and(
        counted(subscriptions, range.businessId),
        lt(subscriptions.periodAnchor, range.from),
        or(isNull(subscriptions.canceledAt), gte(subscriptions.canceledAt, range.from)),
      ),
    );
  return { count: Number(row?.count ?? 0), mrr: Number(row?.mrr ?? 0) };
}

/**
 * Plans that started in the range. A start is a reactivation when the customer had another plan
 * that ended (after it started) at or before this start: each customer's first such end is found
 * in one pass (a plan's own end comes after its start, so the first end before a start is
 * another plan's).
 */
export async function subscriptionStarts(db: Db, range: Range) {
  const ends = db.$with("first_ends").as(
    db
      .select({
        customer: subscriptions.customer,
        firstEnd: sql<string>`min(${subscriptions.canceledAt})`.as("first_end"),
      })
      .from(subscriptions)
      .where(
        and(
          counted(subscriptions, range.businessId),
          sql`${subscriptions.customer} is not null`,
          sql`${subscriptions.canceledAt} > ${subscriptions.periodAnchor}`,
        ),
      )
      .groupBy(subscriptions.customer),
  );
  const reactivation = sql`(${ends.firstEnd} is not null and ${ends.firstEnd} <= ${subscriptions.periodAnchor})`;
  const mrr = monthlySql(subscriptions);
  return db
    .with(ends)
    .select({
      key: bucketKey(range.interval, subscriptions.periodAnchor),
      count: int(sql`count(*)`),
      mrrNew: int(sql`sum(${mrr}) filter (where not ${reactivation})`),
      mrrReactivated: int(sql`sum(${mrr}) filter (where ${reactivation})`),
    })
    .from(subscriptions)
    .leftJoin(ends, eq(ends.customer, subscriptions.customer))
    .where(and(counted(subscriptions, range.businessId), within(subscriptions.periodAnchor, range)))
    .groupBy(sql`1`);
}

/** Plans that ended in the range; involuntary when the provider ended it for failed payments. */
export async function subscriptionEnds(db: Db, range: Range) {
  const canceledAt = sql`${subscriptions.canceledAt}`;
  return db
    .select({
      key: bucketKey(range.interval, canceledAt),
      count: int(sql`count(*)`),
      involuntary: int(sql`count(*) filter (where ${subscriptions.cancellationReason} = 'payment_failed')`),
      mrr: int(sql`sum(${monthlySql(subscriptions)})`),
    })
    .from(subscriptions)
    .where(and(counted(subscriptions, range.businessId), within(canceledAt, range)))
    .groupBy(sql`1`);
}

/**
 * Renewals whose charge failed (announced once per cycle), of counted plans, that bear on the
 * range: failed in it, paid in it, or still unpaid when it starts. `failedAt` is the renewal's
 * opening (its session's creation, on the business's clock); `paidAt` its payment's completion.
 */
export async function failedRenewals(db: Db, range: Range) {
  const rows = await db
    .select({
      subscriptionId: subscriptions.id,
      anchor: subscriptions.periodAnchor,
      canceledAt: subscriptions.canceledAt,
      mrr: int(monthlySql(subscriptions)),
      status: subscriptionCycles.status,
      failedAt: sessions.createdAt,
      paidAt: payments.completedAt,
    })
    .from(subscriptionCycles)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionCycles.subscriptionId))
    .innerJoin(sessions, eq(sessions.id, subscriptionCycles.sessionId))
    .leftJoin(payments, eq(payments.sessionId, subscriptionCycles.sessionId))
    .where(
      and(
        counted(subscriptions, range.businessId),
        eq(subscriptionCycles.failureNotified, true),
        lt(sessions.createdAt, range.until),
        or(
          gte(sessions.createdAt, range.from),
          ne(subscriptionCycles.status, "paid"),
          isNull(payments.completedAt),
          gte(payments.completedAt, range.from),
        ),
      ),
    );
  return rows.map((r) => ({ ...r, mrr: Number(r.mrr), paidAt: r.status === "paid" ? r.paidAt : null }));
}
export type FailedRenewal = Awaited<ReturnType<typeof failedRenewals>>[number];
