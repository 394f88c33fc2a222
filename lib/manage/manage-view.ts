import type { ManagedSubscription } from "@/lib/subscriptions/get-managed-subscription";
import { formatAmount, interpolate, intlLocale, type Locale, type Messages } from "@/lib/i18n";

/** The status badge: the API's status, with `canceling` while an end is scheduled. */
export type ManageStatus = "active" | "past_due" | "canceling" | "canceled";

export function manageStatus(s: ManagedSubscription): ManageStatus {
  if (s.status === "canceled") return "canceled";
  return s.cancelAtPeriodEnd ? "canceling" : s.status;
}

/**
 * Where the subscription stands, as the customer reads it: each state has one sentence
 * (`messages.manage.sentences`). `ending_*`: an end is scheduled, by whom decides who may undo it
 * (the interface: only the customer undoes their own, and only while active; the business its own
 * or the provider dashboard's; support the rest).
 */
export const manageStates = [
  "renews",
  "past_due",
  "ending_yours",
  "ending_yours_past_due",
  "ending_merchant",
  "ending_support",
  "ended",
] as const;
export type ManageState = (typeof manageStates)[number];

export function manageState(s: Pick<ManagedSubscription, "status" | "cancelAtPeriodEnd" | "cancelRequestedBy">): ManageState {
  if (s.status === "canceled") return "ended";
  if (!s.cancelAtPeriodEnd) return s.status === "active" ? "renews" : "past_due";
  if (s.cancelRequestedBy === "payer") return s.status === "active" ? "ending_yours" : "ending_yours_past_due";
  // null: scheduled from the provider dashboard, which is the business's own.
  if (s.cancelRequestedBy === null || s.cancelRequestedBy === "api" || s.cancelRequestedBy === "manager")
    return "ending_merchant";
  return "ending_support";
}

/** What the customer may do in a state: cancel at period end, undo their own cancellation, or nothing. */
export type ManageAction = "cancel" | "resume" | null;

/** Mirrors the services' rules (payer: schedule only when active; undo only its own, while active). */
export function manageAction(state: ManageState): ManageAction {
  if (state === "renews") return "cancel";
  return state === "ending_yours" ? "resume" : null;
}

/** The day a state's sentence names: the end (ended) or the period's end, "on December 22, 2026". */
function stateDay(s: ManagedSubscription, state: ManageState, locale: Locale, messages: Messages): string {
  const iso = state === "ended" ? (s.canceledAt ?? s.currentPeriodEnd) : s.currentPeriodEnd;
  const m = messages.manage;
  return iso ? interpolate(m.onDay, { date: formatDay(iso, locale) }) : m.periodEnd;
}

/** The one sentence that says where the subscription stands, in the customer's language. */
export function manageSentence(s: ManagedSubscription, locale: Locale, messages: Messages): string {
  const state = manageState(s);
  return interpolate(messages.manage.sentences[state], {
    merchant: s.merchant,
    when: stateDay(s, state, locale, messages),
  });
}

/** The outcome of the change just made, kept only while the page's state still agrees with it. */
export function visibleResult<R extends string>(result: R | null, state: ManageState): R | null {
  if (result === "canceled") return state === "ending_yours" ? result : null;
  if (result === "resumed") return state === "renews" ? result : null;
  if (result === "not_allowed") return state.startsWith("ending_") && state !== "ending_yours" ? result : null;
  return result;
}

/** The outcome's sentence; `when` is the period's end as the state sentences say it. */
export function manageResultText(
  result: keyof Messages["manage"]["results"],
  s: ManagedSubscription,
  locale: Locale,
  messages: Messages,
): string {
  return interpolate(messages.manage.results[result], {
    merchant: s.merchant,
    when: stateDay(s, manageState(s), locale, messages),
  });
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
