import type { Business, PaymentDetails, Subscription } from "@/db/schema";
import { addInterval, type Interval } from "@/lib/subscriptions/interval";

const dayMs = 86_400_000;

/** A plan of a month or longer gets the renewal-ahead e-mail (Stripe's upcoming-renewal rule). */
export function isMonthOrLonger(interval: Interval, count: number): boolean {
  const start = new Date(Date.UTC(2027, 0, 1));
  return addInterval(start, interval, count).getTime() - start.getTime() >= 28 * dayMs;
}

/** The first instant after the card's expiry month (a card is good through its month's last day). */
export function cardExpiryEnd(card: { exp_month: string; exp_year: string }): Date | null {
  const month = Number(card.exp_month);
  let year = Number(card.exp_year);
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year)) return null;
  if (year < 100) year += 2000;
  return new Date(Date.UTC(year, month, 1));
}

/** When a renewal's notices are due: `days` before it, but never before its period began. */
export function noticeDueAt(periodStart: Date, renewsAt: Date, days: number): Date {
  return new Date(Math.max(periodStart.getTime(), renewsAt.getTime() - days * dayMs));
}

export type NoticeFacts = {
  business: Pick<Business, "recoveryAheadMail" | "recoveryAheadDays" | "recoveryExpiryMail">;
  subscription: Pick<Subscription, "status" | "cancelAtPeriodEnd" | "interval" | "intervalCount">;
  /** The start of the period that this renewal ends (the previous renewal, or the signup). */
  periodStart: Date;
  renewsAt: Date;
  now: Date;
  card: PaymentDetails["card"] | null | undefined;
};

/**
 * Which notices a coming renewal gets now (a pure decision, table-tested): none once the plan
 * ended, will end at the period's end, or the renewal has passed; `renewal_ahead` for a plan of a
 * month or longer from `recoveryAheadDays` before; `card_expiring` when the card's expiry month
 * ends inside this period (so this renewal is the first after it).
 */
export function noticesDue(facts: NoticeFacts): ("renewal_ahead" | "card_expiring")[] {
  const { business, subscription, periodStart, renewsAt, now } = facts;
  if (subscription.status === "canceled" || subscription.cancelAtPeriodEnd || now >= renewsAt) return [];
  const due: ("renewal_ahead" | "card_expiring")[] = [];
  const inWindow = now >= noticeDueAt(periodStart, renewsAt, business.recoveryAheadDays);
  if (business.recoveryAheadMail && inWindow && isMonthOrLonger(subscription.interval, subscription.intervalCount))
    due.push("renewal_ahead");
  const expiry = facts.card ? cardExpiryEnd(facts.card) : null;
  if (business.recoveryExpiryMail && inWindow && expiry && expiry > periodStart && expiry <= renewsAt) due.push("card_expiring");
  return due;
}
