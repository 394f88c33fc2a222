import { defaultLocale, locales, type Locale } from "./locales";

type Range = { tag: string; q: number; order: number };

/** Accept-Language as ranges, best first (RFC 9110 §12.5.4); malformed entries are skipped. */
export function parseAcceptLanguage(header: string | null | undefined): Range[] {
  if (!header) return [];
  const ranges: Range[] = [];
  header
    .slice(0, 1024)
    .split(",")
    .forEach((part, order) => {
      const [rawTag, ...params] = part.trim().split(";");
      const tag = rawTag?.trim().toLowerCase() ?? "";
      if (!/^(\*|[a-z]{1,8}(-[a-z0-9]{1,8})*)$/.test(tag)) return;
      let q = 1;
      for (const param of params) {
        const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
        if (match) q = Math.min(1, Number(match[1]));
      }
      if (q > 0) ranges.push({ tag, q, order });
    });
  return ranges.sort((a, b) => b.q - a.q || a.order - b.order);
}

/**
 * The supported locale that best matches Accept-Language: an exact tag first (`pt-br`), then the
 * language alone (`es-MX` → `es`, any `pt` → `pt-BR`); English when nothing matches.
 */
export function negotiateLocale(header: string | null | undefined): Locale {
  for (const { tag } of parseAcceptLanguage(header)) {
    if (tag === "*") return defaultLocale;
    const exact = locales.find((locale) => locale.toLowerCase() === tag);
    if (exact) return exact;
    const language = tag.split("-")[0];
    const sameLanguage = locales.find((locale) => locale.toLowerCase().split("-")[0] === language);
    if (sameLanguage) return sameLanguage;
  }
  return defaultLocale;
}
