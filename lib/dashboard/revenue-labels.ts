import type { RevenueInterval } from "@/lib/analytics/revenue-buckets";
import type { RevenueBucket } from "@/lib/analytics/revenue-schemas";

// What the overview's revenue charts and tables print (no database: the charts are client code).

const monthLabel = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" });
const dayLabel = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** A bucket's name: "Nov 23" (day), "Week of Nov 23" (week), "Nov 2026" (month). */
export function bucketLabel(start: string, interval: RevenueInterval): string {
  const date = new Date(start);
  if (interval === "month") return monthLabel.format(date);
  return interval === "week" ? `Week of ${dayLabel.format(date)}` : dayLabel.format(date);
}

/**
 * Churn rate of each bucket in percent: plans canceled in it ÷ plans counted at its start (the
 * previous bucket's end; for the first, its end less its starts plus its ends), as Stripe counts
 * subscriber churn. Null when no plan counted at the start.
 */
export function churnRates(data: RevenueBucket[]): (number | null)[] {
  return data.map((bucket, i) => {
    const atStart =
      i > 0
        ? data[i - 1]!.active_subscriptions
        : bucket.active_subscriptions - bucket.new_subscriptions + bucket.churned_subscriptions;
    return atStart > 0 ? Math.round((bucket.churned_subscriptions / atStart) * 1000) / 10 : null;
  });
}

/** A churn rate as staff read it: "2.5%", or "—" without plans at the start. */
export const formatRate = (rate: number | null): string => (rate === null ? "—" : `${rate}%`);
