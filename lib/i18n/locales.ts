/** The languages the customer-facing pages speak; the first is the fallback. */
export const locales = ["en", "es", "pt-BR"] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = "en";

/** The BCP 47 tag handed to Intl for numbers and dates in each locale. */
export const intlLocale: Record<Locale, string> = { en: "en-US", es: "es", "pt-BR": "pt-BR" };

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (locales as readonly string[]).includes(value);
}
