import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
  payments,
  refunds,
  sessions,
  subscriptionCycles,
  subscriptions,
} from "@/db/schema";
import { parseDbTime } from "@/lib/time";

// The plain reference the property test compares GET /analytics/revenue with: every raw row of
// the business read back, every figure of every bucket computed by a direct filter over them
// (MRR and counts at each bucket's end counted afresh, not carried forward). Deliberately naive.

const t = (stamp: string | null) => (stamp === null ? null : parseDbTime(stamp).getTime());
const perYear: Record<string, number> = { day: 365, week: 52, month: 12, year: 1 };

/** The buckets of [from, until) stepped through the calendar with Date's own UTC arithmetic. */
export function referenceBuckets(interval: string, from: number, until: number): [number, number][] {
  const out: [number, number][] = [];
  for (let start = from; start < until;) {
    const d = new Date(start);
    d.setUTCHours(0, 0, 0, 0);
    if (interval === "day") d.setUTCDate(d.getUTCDate() + 1);
    if (interval === "week") d.setUTCDate(d.getUTCDate() + (d.getUTCDay() === 0 ? 1 : 8 - d.getUTCDay()));
    if (interval === "month") d.setUTCMonth(d.getUTCMonth() + 1, 1);
    const end = Math.min(d.getTime(), until);
    out.push([start, end]);
    start = end;
  }
  return out;
}

async function readRows(db: Db, businessId: string) {
  const pays = await db.select().from(payments).where(eq(payments.businessId, businessId));
  const refs = await db.select().from(refunds).where(eq(refunds.businessId, businessId));
  const txs = await db.select().from(ledgerTransactions).where(eq(ledgerTransactions.businessId, businessId));
  const accounts = await db.select().from(ledgerAccounts).where(eq(ledgerAccounts.businessId, businessId));
  const entries = txs.length
    ? await db
        .select()
        .from(ledgerEntries)
        .where(
          inArray(
            ledgerEntries.transactionId,
            txs.map((x) => x.id),
          ),
        )
    : [];
  const subs = await db.select().from(subscriptions).where(eq(subscriptions.businessId, businessId));
  const cycles = subs.length
    ? await db
        .select()
        .from(subscriptionCycles)
        .where(
          inArray(
            subscriptionCycles.subscriptionId,
            subs.map((s) => s.id),
          ),
        )
    : [];
  const sess = await db.select().from(sessions).where(eq(sessions.businessId, businessId));
  return { pays, refs, txs, accounts, entries, subs, cycles, sess };
}

type Rows = Awaited<ReturnType<typeof readRows>>;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The money figures of [s, e): direct filters over payments, refunds and ledger rows. */
function moneyIn(r: Rows, s: number, e: number) {
  const inB = (ms: number | null) => ms !== null && ms >= s && ms < e;
  const external = new Set(r.accounts.filter((a) => a.kind === "external").map((a) => a.id));
  const payById = new Map(r.pays.map((p) => [p.id, p]));
  const gross = r.pays.filter((p) => p.status === "succeeded" && inB(t(p.completedAt ?? p.createdAt)));
  const refunded = r.refs.filter(
    (x) =>
      x.status !== "failed" &&
      x.reason !== "duplicate" &&
      payById.get(x.paymentId)?.status === "succeeded" &&
      inB(t(x.createdAt)),
  );
  const disputeIds = new Set(
    r.txs
      .filter(
        (x) => (x.kind === "dispute_withdrawal" || x.kind === "dispute_reinstatement") && inB(t(x.createdAt)),
      )
      .map((x) => x.id),
  );
  const disputed = sum(
    r.entries
      .filter((x) => disputeIds.has(x.transactionId) && external.has(x.accountId))
      .map((x) => x.amount),
  );
  const grossVolume = sum(gross.map((p) => p.amount));
  const fees = sum(gross.map((p) => p.fees ?? 0));
  const refundedSum = sum(refunded.map((x) => x.amount));
  return {
    gross_volume: grossVolume,
    refunded: refundedSum,
    disputed,
    fees,
    net_volume: grossVolume - refundedSum - disputed - fees,
    payments: gross.length,
  };
}

/** Every figure, per bucket, from the raw rows. */
export async function referenceFigures(
  db: Db,
  businessId: string,
  interval: string,
  from: number,
  until: number,
) {
  const r = await readRows(db, businessId);
  const payBySession = new Map(r.pays.map((p) => [p.sessionId, p]));
  const sessionAt = new Map(r.sess.map((s) => [s.id, t(s.createdAt)!]));
  const subs = r.subs.filter((s) => s.canceledBy !== "system");
  const monthly = (s: (typeof subs)[number]) =>
    Math.round((s.unitAmount * perYear[s.interval]!) / (12 * s.intervalCount));
  const countedAt = (s: (typeof subs)[number], at: number) =>
    t(s.periodAnchor)! < at && (s.canceledAt === null || t(s.canceledAt)! >= at);
  const failures = r.cycles
    .filter((c) => c.failureNotified && subs.some((s) => s.id === c.subscriptionId))
    .map((c) => ({
      sub: c.subscriptionId,
      failedAt: sessionAt.get(c.sessionId!)!,
      paidAt: c.status === "paid" ? t(payBySession.get(c.sessionId!)?.completedAt ?? null) : null,
    }));
  return referenceBuckets(interval, from, until).map(([s, e]) => {
    const inB = (ms: number | null) => ms !== null && ms >= s && ms < e;
    const started = subs.filter((x) => inB(t(x.periodAnchor)));
    const back = (x: (typeof subs)[number]) =>
      x.customer !== null &&
      subs.some(
        (o) =>
          o.id !== x.id &&
          o.customer === x.customer &&
          o.canceledAt !== null &&
          t(o.canceledAt)! > t(o.periodAnchor)! &&
          t(o.canceledAt)! <= t(x.periodAnchor)!,
      );
    const ended = subs.filter((x) => inB(t(x.canceledAt)));
    const active = subs.filter((x) => countedAt(x, e));
    const pastDue = active.filter((x) =>
      failures.some((f) => f.sub === x.id && f.failedAt < e && (f.paidAt === null || f.paidAt >= e)),
    );
    return {
      start: new Date(s).toISOString(),
      end: new Date(e).toISOString(),
      ...moneyIn(r, s, e),
      mrr: sum(active.map(monthly)),
      mrr_new: sum(started.filter((x) => !back(x)).map(monthly)),
      mrr_churned: sum(ended.map(monthly)),
      mrr_reactivated: sum(started.filter(back).map(monthly)),
      mrr_past_due: sum(pastDue.map(monthly)),
      active_subscriptions: active.length,
      past_due_subscriptions: pastDue.length,
      new_subscriptions: started.length,
      churned_subscriptions: ended.length,
      churned_voluntary: ended.filter((x) => x.cancellationReason !== "payment_failed").length,
      churned_involuntary: ended.filter((x) => x.cancellationReason === "payment_failed").length,
      renewals_failed: failures.filter((f) => inB(f.failedAt)).length,
      renewals_recovered: failures.filter((f) => inB(f.paidAt)).length,
    };
  });
}
