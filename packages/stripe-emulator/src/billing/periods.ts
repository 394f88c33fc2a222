import type Stripe from "stripe";
import type { Interval } from "../resources/products";

const day = 86_400;

/** `anchor` moved by `times` × `count` intervals; month ends clamp (Jan 31 → Feb 28 → Mar 31). */
export function addIntervals(anchor: number, interval: Interval, count: number, times: number): number {
  if (interval === "day") return anchor + day * count * times;
  if (interval === "week") return anchor + 7 * day * count * times;
  const date = new Date(anchor * 1000);
  const months = date.getUTCMonth() + (interval === "month" ? count : 12 * count) * times;
  const year = date.getUTCFullYear() + Math.floor(months / 12);
  const month = ((months % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return (
    Date.UTC(
      year,
      month,
      Math.min(date.getUTCDate(), lastDay),
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
    ) / 1000
  );
}

/** The first billing date (anchor + k intervals, k ≥ 0) strictly after `after`. */
export function nextBillingDate(anchor: number, interval: Interval, count: number, after: number): number {
  if (anchor > after) return anchor;
  const approxLength = { day, week: 7 * day, month: 28 * day, year: 365 * day }[interval] * count;
  let k = Math.max(1, Math.floor((after - anchor) / approxLength) - 1);
  while (addIntervals(anchor, interval, count, k) <= after) k++;
  while (k > 1 && addIntervals(anchor, interval, count, k - 1) > after) k--;
  return addIntervals(anchor, interval, count, k);
}

export function recurringOf(subscription: Stripe.Subscription): {
  interval: Interval;
  interval_count: number;
} {
  const recurring = subscription.items.data[0]?.price.recurring;
  return {
    interval: (recurring?.interval ?? "month") as Interval,
    interval_count: recurring?.interval_count ?? 1,
  };
}

export const periodOf = (subscription: Stripe.Subscription) => ({
  start: subscription.items.data[0]?.current_period_start ?? subscription.start_date,
  end: subscription.items.data[0]?.current_period_end ?? subscription.start_date,
});

export function setPeriod(subscription: Stripe.Subscription, start: number, end: number): void {
  for (const item of subscription.items.data) {
    item.current_period_start = start;
    item.current_period_end = end;
  }
}
