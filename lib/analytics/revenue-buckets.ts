// Pure pieces of the revenue analytics (docs/analytics.md): the series' buckets, and a plan's
// price normalised to a month. No database here: the property test and the service share them.

export const revenueIntervals = ["day", "week", "month"] as const;
export type RevenueInterval = (typeof revenueIntervals)[number];

/** A request may ask for at most this many buckets (a little over a year by day). */
export const maxBuckets = 400;

export type Bucket = { start: number; end: number };

const dayMs = 86_400_000;

/** The calendar start (UTC) of the day, ISO week (Monday) or month holding `ms`. */
export function floorTo(interval: RevenueInterval, ms: number): number {
  const d = new Date(ms);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (interval === "day") return day;
  if (interval === "week") return day - ((d.getUTCDay() + 6) % 7) * dayMs;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** The calendar start after the one holding `ms`. */
export function nextStart(interval: RevenueInterval, ms: number): number {
  const start = floorTo(interval, ms);
  if (interval === "day") return start + dayMs;
  if (interval === "week") return start + 7 * dayMs;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** How many buckets [from, until) spans; stops counting past `maxBuckets`. */
export function bucketCount(interval: RevenueInterval, from: number, until: number): number {
  let count = 0;
  for (let at = from; at < until && count <= maxBuckets; at = nextStart(interval, at)) count++;
  return count;
}

/**
 * [from, until) cut at the interval's calendar starts (UTC): the first and last buckets are
 * clipped to the range, so the series adds up to exactly the range.
 */
export function revenueBuckets(interval: RevenueInterval, from: number, until: number): Bucket[] {
  const buckets: Bucket[] = [];
  for (let at = from; at < until;) {
    const end = Math.min(nextStart(interval, at), until);
    buckets.push({ start: at, end });
    at = end;
  }
  return buckets;
}

/** The index of the bucket holding `ms`, or -1 outside [first start, last end). */
export function bucketIndex(buckets: Bucket[], ms: number): number {
  let lo = 0;
  let hi = buckets.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const b = buckets[mid]!;
    if (ms < b.start) hi = mid - 1;
    else if (ms >= b.end) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** Periods of each plan interval in a year: a month is a year ÷ 12. */
export const periodsPerYear = { day: 365, week: 52, month: 12, year: 1 } as const;
export type PlanInterval = keyof typeof periodsPerYear;

/**
 * A plan's price per month in cents, rounded half up once per plan: price × periods a year ÷ 12 ÷
 * interval_count (a week × 52 ÷ 12, a day × 365 ÷ 12). Integer arithmetic, no float drift; the SQL
 * of lib/analytics/revenue-queries.ts rounds the same way.
 */
export function monthlyAmount(unitAmount: number, interval: PlanInterval, intervalCount: number): number {
  const numerator = unitAmount * periodsPerYear[interval];
  const denominator = 12 * intervalCount;
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/** The default range when the query names none: 30 days by day, 12 weeks by week, 12 months by month. */
export function defaultFrom(interval: RevenueInterval, until: number): number {
  const last = floorTo(interval, until - 1);
  if (interval === "day") return last - 29 * dayMs;
  if (interval === "week") return last - 11 * 7 * dayMs;
  const d = new Date(last);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11, 1);
}
