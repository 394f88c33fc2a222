import { formatAmount } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { CheckoutPageData } from "./get-checkout";

/** Amounts in cents → as the page writes them ("$37.00", "37,00 US$"), formatted by the server. */
export type AmountTexts = Record<number, string>;

/**
 * Every amount the checkout page can show before the customer acts: the session's, each item's
 * line, each method's total, fee and renewal, and a payment's own amount and fee. The server
 * formats them, so hydration never builds an `Intl.NumberFormat`: a browser's first one loads
 * ICU's locale and currency data, a long task on a slow phone (decision 0033).
 */
export function checkoutAmountTexts(data: CheckoutPageData, locale: Locale): AmountTexts {
  const amounts = new Set([data.amount, ...data.items.map((item) => item.price * item.quantity)]);
  for (const m of data.methods) for (const cents of [m.total, m.customerFee, m.renewalAmount]) amounts.add(cents);
  if (data.paidAmount !== null) amounts.add(data.paidAmount).add(data.paidAmount - data.amount);
  return Object.fromEntries([...amounts].map((cents) => [cents, formatAmount(cents, data.currency, locale)]));
}

/** An amount as the page writes it: the server's text when it has one, else formatted here. */
export function amountText(texts: AmountTexts, cents: number, currency: string, locale: Locale): string {
  return texts[cents] ?? formatAmount(cents, currency, locale);
}
