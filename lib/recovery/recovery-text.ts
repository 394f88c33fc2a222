import { formatAmount, interpolate, intlLocale, messagesFor, type Locale } from "@/lib/i18n";
import type { MailParts } from "@/lib/mail/render-mail";
import { methodText } from "@/lib/receipts/receipt-text";

/** What every recovery e-mail names: the business, the plan's order and the renewal's amount. */
export type RecoveryFacts = {
  merchant: string;
  orderId: string;
  /** Cents the renewal charges. */
  amount: number;
  currency: string;
  locale: Locale;
  /** The subscriber's management page (the interface's management_url). */
  managementUrl: string;
};

type ReasonKey = keyof ReturnType<typeof messagesFor>["recovery"]["reasons"];

const reasonOfCode: Record<string, ReasonKey> = {
  insufficient_funds: "insufficient_funds",
  expired_card: "expired_card",
  authentication_required: "authentication_required",
  incorrect_cvc: "incorrect_cvc",
  invalid_cvc: "incorrect_cvc",
  lost_card: "lost_or_stolen",
  stolen_card: "lost_or_stolen",
  pickup_card: "lost_or_stolen",
};

/** A provider's failure code in plain words; a code we do not know reads as a decline by the bank. */
export function failureReasonText(code: string | null | undefined, locale: Locale): string {
  const reasons = messagesFor(locale).recovery.reasons;
  return reasons[reasonOfCode[code ?? ""] ?? "declined"];
}

/** "2 January 2027" in the payer's language (UTC: the date the provider bills on). */
export function recoveryDate(date: Date, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: "long", timeZone: "UTC" }).format(date);
}

function money(facts: RecoveryFacts): string {
  return formatAmount(facts.amount, facts.currency, facts.locale);
}

const footnote = (facts: RecoveryFacts) =>
  interpolate(messagesFor(facts.locale).recovery.footnote, { merchant: facts.merchant });

/**
 * The renewal failed: what and why, and the provider's page to pay the open invoice (or, when the
 * provider gave none, the management page).
 */
export function renewalFailedMail(facts: RecoveryFacts, failure: { code: string | null; payUrl: string | null }): MailParts {
  const m = messagesFor(facts.locale).recovery;
  const values = { merchant: facts.merchant, amount: money(facts), order: facts.orderId };
  return {
    subject: interpolate(m.failedSubject, values),
    paragraphs: [
      interpolate(m.failedIntro, values),
      interpolate(m.failedWhy, { reason: failureReasonText(failure.code, facts.locale) }),
      m.failedNext,
      `${m.manage}: ${facts.managementUrl}`,
    ],
    action: failure.payUrl
      ? { label: m.failedAction, url: failure.payUrl }
      : { label: m.manage, url: facts.managementUrl },
    footnote: footnote(facts),
  };
}

/** N days before a renewal: the amount and the date; cancelling stays the payer's own choice. */
export function renewalAheadMail(facts: RecoveryFacts, renewsAt: Date): MailParts {
  const m = messagesFor(facts.locale).recovery;
  const values = { merchant: facts.merchant, amount: money(facts), order: facts.orderId, date: recoveryDate(renewsAt, facts.locale) };
  return {
    subject: interpolate(m.aheadSubject, values),
    paragraphs: [interpolate(m.aheadIntro, values), m.aheadNext],
    action: { label: m.manage, url: facts.managementUrl },
    footnote: footnote(facts),
  };
}

/** The card expires before the next renewal: which card, when, and what the next renewal charges. */
export function cardExpiringMail(
  facts: RecoveryFacts,
  card: { brand: string; last4: string; expMonth: number; expYear: number },
  renewsAt: Date,
): MailParts {
  const m = messagesFor(facts.locale).recovery;
  const month = new Intl.DateTimeFormat(intlLocale[facts.locale], { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(Date.UTC(card.expYear, card.expMonth - 1, 15)),
  );
  const cardText = methodText({ type: "card", brand: card.brand, last4: card.last4 }, facts.locale) ?? card.last4;
  const values = {
    merchant: facts.merchant,
    amount: money(facts),
    order: facts.orderId,
    date: recoveryDate(renewsAt, facts.locale),
    card: cardText,
    month,
  };
  return {
    subject: interpolate(m.expirySubject, values),
    paragraphs: [interpolate(m.expiryIntro, values), interpolate(m.expiryNext, values)],
    action: { label: m.manage, url: facts.managementUrl },
    footnote: footnote(facts),
  };
}
