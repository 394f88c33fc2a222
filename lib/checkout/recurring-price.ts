import { formatAmount, interpolate } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";
import type { PlanWords } from "./checkout-messages";

export type RecurringPlan = { interval: "day" | "week" | "month" | "year"; intervalCount: number };

/** "every month", "cada 3 meses": the management page's own words for the period. */
export function intervalWords(plan: RecurringPlan, messages: PlanWords): string {
  const every = messages.manage.every;
  return plan.intervalCount === 1
    ? every[plan.interval]
    : interpolate(every[`${plan.interval}s`], { count: plan.intervalCount });
}

/** "$25.00 every month", "25,00 US$ cada 3 meses", as the management page writes it. */
export function recurringPrice(
  cents: number,
  currency: string,
  plan: RecurringPlan,
  locale: Locale,
  messages: Messages,
): string {
  return recurringPriceText(formatAmount(cents, currency, locale), plan, messages);
}

/** recurringPrice with the amount already written ("$25.00"): the checkout page's amounts come formatted by the server. */
export function recurringPriceText(amount: string, plan: RecurringPlan, messages: PlanWords): string {
  return interpolate(messages.manage.pricePerInterval, { amount, interval: intervalWords(plan, messages) });
}
