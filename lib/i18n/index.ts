export { countryName, formatAmount, interpolate } from "./format";
export { defaultLocale, intlLocale, isLocale, locales, type Locale } from "./locales";
export { messagesFor, type Messages } from "./messages";
export { negotiateLocale, parseAcceptLanguage } from "./negotiate-locale";
