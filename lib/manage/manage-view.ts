import type { ManagedSubscription } from "@/lib/subscriptions/get-managed-subscription";
import { formatAmount, interpolate, intlLocale, type Locale, type Messages } from "@/lib/i18n";

export type ManageStatus = "active" | "past_due" | "canceling" | "canceled";

/** What the customer may do: cancel, undo their own cancellation, or nothing (and why). */
export type ManageAction = "cancel" | "resume" | "merchant_scheduled" | "past_due" | "ended";

export function manageStatus(s: ManagedSubscription): ManageStatus {
  if (s.status === "canceled") return "canceled";
  return s.cancelAtPeriodEnd ? "canceling" : s.status;
}

/** Mirrors the services' rules (payer: schedule only when active; undo only its own). */
export function manageAction(s: ManagedSubscription): ManageAction {
  if (s.status === "canceled") return "ended";
  if (s.cancelAtPeriodEnd)
    return s.cancelRequestedBy === "payer" && s.status === "active" ? "resume" : "merchant_scheduled";
  return s.status === "active" ? "cancel" : "past_due";
}

/** "$25.00 every month", "25,00 US$ cada 3 meses". */
export function pricePerInterval(s: ManagedSubscription, locale: Locale, messages: Messages): string {
  const every = messages.manage.every;
  const interval =
    s.intervalCount === 1
      ? every[s.interval]
      : interpolate(every[`${s.interval}s`], { count: s.intervalCount });
  return interpolate(messages.manage.pricePerInterval, {
    amount: formatAmount(s.amount, s.currency, locale),
    interval,
  });
}

/** A day in the customer's language, read in UTC like the API's timestamps. */
export function formatDay(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(iso),
  );
}

const brands: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
};

export function cardBrandName(brand: string): string {
  return brands[brand.toLowerCase()] ?? (brand ? brand[0]!.toUpperCase() + brand.slice(1) : brand);
}
