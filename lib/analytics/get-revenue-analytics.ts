import type { Db } from "@/db/client";
import type { Business } from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { ValidationError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/http/validation";
import { parseDbTime } from "@/lib/time";
import {
  bucketCount,
  defaultFrom,
  floorTo,
  maxBuckets,
  revenueBuckets,
  type Bucket,
  type RevenueInterval,
} from "./revenue-buckets";
import {
  disputeFigures,
  failedRenewals,
  paymentFigures,
  refundFigures,
  subscriptionEnds,
  subscriptionStarts,
  subscriptionsAt,
  type FailedRenewal,
  type Range,
} from "./revenue-queries";
import {
  revenueFigureNames,
  revenueQuerySchema,
  type RevenueAnalytics,
  type RevenueBucket,
  type RevenueFigures,
  type RevenueQuery,
} from "./revenue-schemas";

/** The query string of GET /analytics/revenue, validated (the 400 field map names the parameter). */
export function parseRevenueQuery(params: URLSearchParams): RevenueQuery {
  const raw: Record<string, string> = {};
  for (const key of ["from", "until", "interval"]) {
    const value = params.get(key);
    if (value) raw[key] = value;
  }
  return parseOrThrow(revenueQuerySchema, raw);
}

/** The range a query asks for, its defaults on the business's clock; a 400 past `maxBuckets`. */
export function resolveRevenueRange(business: Pick<Business, "clockOffsetMs">, query: RevenueQuery) {
  const interval: RevenueInterval = query.interval ?? "month";
  const until = query.until ? Date.parse(query.until) : businessNow(business).getTime();
  const from = query.from ? Date.parse(query.from) : defaultFrom(interval, until);
  if (from >= until) throw ValidationError.field("until", "until must be after from");
  if (bucketCount(interval, from, until) > maxBuckets)
    throw ValidationError.field(
      "interval",
      `from to until holds more than ${maxBuckets} buckets of a ${interval}: narrow the range or use a longer interval`,
    );
  return { interval, from, until };
}

const zeroFigures = (): RevenueFigures =>
  Object.fromEntries(revenueFigureNames.map((name) => [name, 0])) as RevenueFigures;

const ms = (stamp: string | null) => (stamp === null ? null : parseDbTime(stamp).getTime());

/** Per bucket end, the plans past due then (counted, a failed renewal not yet paid): count and MRR. */
function pastDueAt(end: number, failures: FailedRenewal[]) {
  const subs = new Map<string, number>();
  for (const f of failures) {
    const canceled = ms(f.canceledAt);
    const paid = ms(f.paidAt);
    const counted = ms(f.anchor)! < end && (canceled === null || canceled >= end);
    if (counted && ms(f.failedAt)! < end && (paid === null || paid >= end)) subs.set(f.subscriptionId, f.mrr);
  }
  return { count: subs.size, mrr: [...subs.values()].reduce((a, b) => a + b, 0) };
}

/**
 * GET /analytics/revenue: a business's revenue and subscription figures per bucket of [from,
 * until), computed from the payments, refunds and ledger rows and the subscription records
 * (docs/analytics.md defines each figure). Read-only.
 */
export async function getRevenueAnalytics(
  db: Db,
  business: Pick<Business, "id" | "clockOffsetMs">,
  query: RevenueQuery,
): Promise<RevenueAnalytics> {
  const { interval, from, until } = resolveRevenueRange(business, query);
  const buckets = revenueBuckets(interval, from, until);
  const range: Range = {
    businessId: business.id,
    interval,
    from: new Date(from).toISOString(),
    until: new Date(until).toISOString(),
  };
  const [paid, refunded, disputed, base, starts, ends, failures] = await Promise.all([
    paymentFigures(db, range),
    refundFigures(db, range),
    disputeFigures(db, range),
    subscriptionsAt(db, range),
    subscriptionStarts(db, range),
    subscriptionEnds(db, range),
    failedRenewals(db, range),
  ]);
  const index = new Map(
    buckets.map((b, i) => [new Date(floorTo(interval, b.start)).toISOString().slice(0, 10), i]),
  );
  const rows = buckets.map(zeroFigures);
  const add = (key: string, figures: Partial<RevenueFigures>) => {
    const row = rows[index.get(key) ?? -1];
    if (!row) return;
    for (const [name, value] of Object.entries(figures)) row[name as keyof RevenueFigures] += value;
  };
  for (const r of paid)
    add(r.key, { gross_volume: Number(r.gross), fees: Number(r.fees), payments: Number(r.count) });
  for (const r of refunded) add(r.key, { refunded: Number(r.refunded) });
  for (const r of disputed) add(r.key, { disputed: Number(r.disputed) });
  for (const r of starts)
    add(r.key, {
      new_subscriptions: Number(r.count),
      mrr_new: Number(r.mrrNew),
      mrr_reactivated: Number(r.mrrReactivated),
    });
  for (const r of ends)
    add(r.key, {
      churned_subscriptions: Number(r.count),
      churned_involuntary: Number(r.involuntary),
      churned_voluntary: Number(r.count) - Number(r.involuntary),
      mrr_churned: Number(r.mrr),
    });
  for (const f of failures) {
    const failedAt = ms(f.failedAt)!;
    if (failedAt >= from) add(keyOf(interval, failedAt), { renewals_failed: 1 });
    const paidAt = ms(f.paidAt);
    if (paidAt !== null && paidAt >= from && paidAt < until)
      add(keyOf(interval, paidAt), { renewals_recovered: 1 });
  }
  return { currency: "USD", interval, ...withStocks(buckets, rows, base, failures) };
}

const keyOf = (interval: RevenueInterval, at: number) =>
  new Date(floorTo(interval, at)).toISOString().slice(0, 10);

/** Running MRR and counts from the range's start, past-due figures, net volume; and the totals. */
function withStocks(
  buckets: Bucket[],
  rows: RevenueFigures[],
  base: { count: number; mrr: number },
  failures: FailedRenewal[],
): { data: RevenueBucket[]; totals: RevenueBucket } {
  let mrr = base.mrr;
  let active = base.count;
  const totals = zeroFigures();
  const data = buckets.map((bucket, i) => {
    const row = rows[i]!;
    mrr += row.mrr_new + row.mrr_reactivated - row.mrr_churned;
    active += row.new_subscriptions - row.churned_subscriptions;
    const pastDue = pastDueAt(bucket.end, failures);
    Object.assign(row, {
      net_volume: row.gross_volume - row.refunded - row.disputed - row.fees,
      mrr,
      active_subscriptions: active,
      mrr_past_due: pastDue.mrr,
      past_due_subscriptions: pastDue.count,
    });
    for (const name of revenueFigureNames) totals[name] += row[name];
    return { start: new Date(bucket.start).toISOString(), end: new Date(bucket.end).toISOString(), ...row };
  });
  const last = data.at(-1)!;
  Object.assign(totals, {
    mrr: last.mrr,
    mrr_past_due: last.mrr_past_due,
    active_subscriptions: last.active_subscriptions,
    past_due_subscriptions: last.past_due_subscriptions,
  });
  return { data, totals: { start: data[0]!.start, end: last.end, ...totals } };
}
