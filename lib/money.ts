/**
 * The one money formatter: cents as a currency string for display, e.g. 2500 → "$25.00".
 * The dashboard, the hosted pages (through lib/i18n's formatAmount, in the customer's locale) and
 * the sandbox simulator page all format through it. Amounts are integer cents (the interface's
 * only currency is USD); a code Intl does not know still shows, as "25.00 XYZ".
 */
export function formatMoney(cents: number, currency = "USD", locale = "en-US"): string {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

/** Like formatMoney, for a value that may be missing (a payment's fees before it is paid): "—". */
export function formatMoneyOrDash(cents: number | null | undefined, currency = "USD", locale = "en-US"): string {
  return cents === null || cents === undefined ? "—" : formatMoney(cents, currency, locale);
}
