import { formatMoney } from "@/lib/money";
import { intlLocale, type Locale } from "./locales";

/** Cents as money in the customer's locale: 3700 → "$37.00", "37,00 US$", "US$ 37,00". */
export function formatAmount(cents: number, currency: string, locale: Locale): string {
  return formatMoney(cents, currency, intlLocale[locale]);
}

/** Fills `{name}` placeholders; unknown placeholders are left as they are. */
export function interpolate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** A country's name in the customer's language (`BR` → "Brazil", "Brasil"). */
export function countryName(code: string, locale: Locale): string {
  try {
    return new Intl.DisplayNames([intlLocale[locale]], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}
