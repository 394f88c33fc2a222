import type { Subscription } from "@/db/schema";

export type Interval = Subscription["interval"];

/** `every month`, `every 3 months`, `every year`, `every 2 weeks`. */
export function intervalLabel(interval: Interval, count: number): string {
  return count === 1 ? `every ${interval}` : `every ${count} ${interval}s`;
}

/**
 * `from` plus `count` times the interval, in UTC, the way Stripe bills: months and years keep the
 * day of the month, clamped to the month's last day (Jan 31 + 1 month = Feb 28 or 29).
 */
export function addInterval(from: Date, interval: Interval, count: number): Date {
  if (interval === "day" || interval === "week") {
    const days = interval === "day" ? count : count * 7;
    return new Date(from.getTime() + days * 86_400_000);
  }
  const months = interval === "month" ? count : count * 12;
  const year = from.getUTCFullYear();
  const month = from.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(from.getUTCDate(), lastDay);
  return new Date(
    Date.UTC(
      year,
      month,
      day,
      from.getUTCHours(),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  );
}

/**
 * The cycle a provider period starting at `periodStart` is: 1 for the signup period starting at
 * `anchor`, 2 for the next, ... Taken from the dates rather than from the order events arrive in,
 * so a late or repeated event cannot give a period another number. Nearest whole period: calendar
 * months differ from their mean length by at most two days, far less than half a period.
 */
export function cycleOfPeriod(anchor: Date, periodStart: Date, interval: Interval, count: number): number {
  const meanDays = { day: 1, week: 7, month: 365.2425 / 12, year: 365.2425 }[interval] * count;
  const periods = Math.round((periodStart.getTime() - anchor.getTime()) / (meanDays * 86_400_000));
  return Math.max(1, periods + 1);
}
