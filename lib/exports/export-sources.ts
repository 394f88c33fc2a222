import { and, asc, eq, gt, gte, inArray, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  businesses,
  disputes,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
  payments,
  payoutUsers,
  refunds,
  sessions,
  subscriptions,
  type Business,
} from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { sessionExpired } from "@/lib/payments/get-payment";
import { sessionDisputed } from "@/lib/disputes/dispute-filter";
import { paymentSearchMatches } from "@/lib/payments/payment-search";
import { isoMicros, toDbTime } from "@/lib/time";
import type { CellValue } from "./csv-cell";
import { exportColumns } from "./export-columns";
import type { ExportKind, ExportQuery } from "./export-filters";

/** One page of an export: rows in key order, each with the key the next page starts after. */
export type ExportRow = { key: string; cells: CellValue[] };
type PageArgs<K extends ExportKind> = {
  business: Business;
  query: ExportQuery<K>;
  after: string | null;
  limit: number;
};
type Source<K extends ExportKind> = {
  /** The header row (docs/api/exports.md). */
  columns: readonly string[];
  page: (db: Db, args: PageArgs<K>) => Promise<ExportRow[]>;
};

const time = (value: string | null) => (value ? isoMicros(value) : null);

/** The date range and the keyset cursor on a table's created_at and id (ids sort by creation). */
function rangeAndCursor(
  createdAt: Parameters<typeof gte>[0],
  id: Parameters<typeof gt>[0],
  args: { query: { created_from?: string; created_until?: string }; after: string | null },
): (SQL | undefined)[] {
  return [
    args.query.created_from ? gte(createdAt, args.query.created_from) : undefined,
    args.query.created_until ? lt(createdAt, args.query.created_until) : undefined,
    args.after ? gt(id, args.after) : undefined,
  ];
}

const paymentsSource: Source<"payments"> = {
  columns: exportColumns["payments"],
  async page(db, { business, query, after, limit }) {
    const now = toDbTime(businessNow(business));
    const where: (SQL | undefined)[] = [
      eq(sessions.businessId, business.id),
      ...rangeAndCursor(sessions.createdAt, sessions.id, { query, after }),
    ];
    const q = query.q?.trim();
    // The dashboard's search, the payer's e-mail included (the file's customer_email shows it).
    if (q) where.push(or(...paymentSearchMatches(q)));
    if (query.status === "open") where.push(isNull(payments.status), gt(sessions.expiresAt, now));
    else if (query.status === "expired")
      where.push(
        or(eq(payments.status, "expired"), and(isNull(payments.status), lte(sessions.expiresAt, now))),
      );
    else if (query.status) where.push(eq(payments.status, query.status));
    if (query.method) where.push(eq(payments.paymentMethod, query.method));
    if (query.dispute) where.push(sessionDisputed(query.dispute));
    // Only the columns the file shows (not the sessions' items and metadata, nor the payments'
    // provider details): what is read, sent and parsed per row stays the export's own.
    const rows = await db
      .select({
        id: sessions.id,
        orderId: sessions.orderId,
        amount: sessions.amount,
        currency: sessions.currency,
        customer: sessions.customer,
        customerEmail: sessions.customerEmail,
        expiresAt: sessions.expiresAt,
        createdAt: sessions.createdAt,
        status: payments.status,
        amountReceived: payments.amountReceived,
        fees: payments.fees,
        netAmount: payments.netAmount,
        refundedAmount: payments.refundedAmount,
        paymentMethod: payments.paymentMethod,
        payerEmail: sql<string | null>`${payments.customerDetails}->>'email'`,
        completedAt: payments.completedAt,
        // The latest dispute's status (a charge is disputed at most once); the payment's stays the interface's.
        disputeStatus: sql<string | null>`(SELECT ${disputes.status} FROM ${disputes} WHERE ${disputes.sessionId} = ${sessions.id} ORDER BY ${disputes.id} DESC LIMIT 1)`,
      })
      .from(sessions)
      .leftJoin(
        payments,
        // The business and the cursor on the payments' side too: the page's payments are then read
        // as one range of payments_business_session_idx, not looked up one by one (decision 0057).
        and(
          eq(payments.sessionId, sessions.id),
          eq(payments.businessId, business.id),
          after ? gt(payments.sessionId, after) : undefined,
        ),
      )
      .where(and(...where))
      .orderBy(asc(sessions.id))
      .limit(limit);
    return rows.map((r) => ({
      key: r.id,
      cells: [
        r.id,
        r.orderId,
        r.status ?? (sessionExpired(r, business) ? "expired" : "open"),
        r.amount,
        r.currency,
        r.amountReceived,
        r.fees,
        r.netAmount,
        r.refundedAmount ?? 0,
        r.paymentMethod,
        r.customer,
        r.payerEmail ?? r.customerEmail,
        time(r.createdAt),
        time(r.completedAt),
        r.disputeStatus,
      ],
    }));
  },
};

const refundsSource: Source<"refunds"> = {
  columns: exportColumns["refunds"],
  async page(db, { business, query, after, limit }) {
    const rows = await db
      .select({ refund: refunds, currency: sessions.currency })
      .from(refunds)
      .innerJoin(sessions, eq(sessions.id, refunds.sessionId))
      .where(
        and(
          eq(refunds.businessId, business.id),
          ...rangeAndCursor(refunds.createdAt, refunds.id, { query, after }),
          query.status ? eq(refunds.status, query.status) : undefined,
          query.session_id ? eq(refunds.sessionId, query.session_id) : undefined,
        ),
      )
      .orderBy(asc(refunds.id))
      .limit(limit);
    return rows.map(({ refund: r, currency }) => ({
      key: r.id,
      cells: [
        r.id,
        r.sessionId,
        r.amount,
        currency,
        r.status,
        r.reason,
        r.note,
        r.failureMessage,
        time(r.createdAt),
        time(r.completedAt),
      ],
    }));
  },
};

const subscriptionsSource: Source<"subscriptions"> = {
  columns: exportColumns["subscriptions"],
  async page(db, { business, query, after, limit }) {
    const where: (SQL | undefined)[] = [
      eq(subscriptions.businessId, business.id),
      ...rangeAndCursor(subscriptions.createdAt, subscriptions.id, { query, after }),
      query.customer !== undefined ? eq(subscriptions.customer, query.customer) : undefined,
    ];
    if (query.status === "canceling")
      where.push(
        inArray(subscriptions.status, ["active", "past_due"]),
        eq(subscriptions.cancelAtPeriodEnd, true),
      );
    else if (query.status) where.push(eq(subscriptions.status, query.status));
    const rows = await db
      .select()
      .from(subscriptions)
      .where(and(...where))
      .orderBy(asc(subscriptions.id))
      .limit(limit);
    return rows.map((s) => ({
      key: s.id,
      cells: [
        s.id,
        s.status,
        s.cancelAtPeriodEnd,
        s.amount,
        s.currency,
        s.interval,
        s.intervalCount,
        s.customer,
        s.customerEmail,
        s.orderId,
        s.paymentMethod,
        time(s.currentPeriodEnd),
        time(s.canceledAt),
        time(s.createdAt),
      ],
    }));
  },
};

const payoutUsersSource: Source<"payout-users"> = {
  columns: exportColumns["payout-users"],
  async page(db, { business, query, after, limit }) {
    const rows = await db
      .select({ user: payoutUsers, balance: ledgerAccounts.balance })
      .from(payoutUsers)
      .leftJoin(
        ledgerAccounts,
        and(
          eq(ledgerAccounts.businessId, payoutUsers.businessId),
          eq(ledgerAccounts.kind, "payout_user"),
          eq(ledgerAccounts.ownerId, payoutUsers.id),
        ),
      )
      .where(
        and(
          eq(payoutUsers.businessId, business.id),
          ...rangeAndCursor(payoutUsers.createdAt, payoutUsers.id, { query, after }),
          query.status ? eq(payoutUsers.status, query.status) : undefined,
        ),
      )
      .orderBy(asc(payoutUsers.id))
      .limit(limit);
    return rows.map(({ user: u, balance }) => ({
      key: u.id,
      cells: [u.id, u.email, u.status, balance ?? 0, time(u.createdAt), time(u.deactivatedAt)],
    }));
  },
};

const ledgerEntriesSource: Source<"ledger-entries"> = {
  columns: exportColumns["ledger-entries"],
  async page(db, { business, query, after, limit }) {
    const rows = await db
      .select({ entry: ledgerEntries, tx: ledgerTransactions, account: ledgerAccounts })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(
        and(
          eq(ledgerTransactions.businessId, business.id),
          ...rangeAndCursor(ledgerEntries.createdAt, ledgerEntries.id, { query, after }),
          query.account ? eq(ledgerAccounts.kind, query.account) : undefined,
          query.kind ? eq(ledgerTransactions.kind, query.kind) : undefined,
        ),
      )
      .orderBy(asc(ledgerEntries.id))
      .limit(limit);
    return rows.map(({ entry: e, tx, account: a }) => ({
      key: e.id,
      cells: [e.id, tx.id, tx.kind, tx.reference, a.kind, a.ownerId || null, e.amount, time(e.createdAt)],
    }));
  },
};

export const exportSources: { [K in ExportKind]: Source<K> } = {
  payments: paymentsSource,
  refunds: refundsSource,
  subscriptions: subscriptionsSource,
  "payout-users": payoutUsersSource,
  "ledger-entries": ledgerEntriesSource,
};

export async function loadBusiness(db: Db, businessId: string): Promise<Business | undefined> {
  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId));
  return business;
}
