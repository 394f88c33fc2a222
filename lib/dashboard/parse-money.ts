import { z } from "zod";
import { formatMoney } from "@/lib/money";

/**
 * Money as staff type it, read with their locale (decision 0043): the locale's decimal separator
 * marks the cents, its group separator may split thousands in threes. What could be read two ways
 * is refused, never guessed: "1,50" in en-US is refused (a comma there groups thousands, and "50"
 * is no group of three), so it can never become $150.00; in de-DE it is $1.50.
 * Pure: the money input shows what it understood with it, and the server reads the form with it.
 */
export type ParsedMoney = { ok: true; cents: number } | { ok: false; message: string };

export const defaultMoneyLocale = "en-US";
const maxDollarDigits = 9;

/** A locale Intl knows (a BCP 47 tag), else en-US. */
export function moneyLocale(requested: unknown): string {
  if (typeof requested !== "string" || !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/.test(requested)) return defaultMoneyLocale;
  try {
    return Intl.NumberFormat.supportedLocalesOf([requested])[0] ?? defaultMoneyLocale;
  } catch {
    return defaultMoneyLocale;
  }
}

/** The locale's decimal and group separators (Latin digits: "." and "," or the reverse). */
export function separators(locale: string): { decimal: "." | ","; group: "." | "," } {
  const parts = new Intl.NumberFormat(moneyLocale(locale)).formatToParts(12345.6);
  const decimal = parts.find((p) => p.type === "decimal")?.value === "," ? "," : ".";
  return { decimal, group: decimal === "," ? "." : "," };
}

const spaces = /[\s\u00a0\u202f]/g;

/** `text` as integer cents in `locale`, or why it cannot be read. Empty is refused here (callers decide optional). */
export function parseMoney(text: string, locale: string = defaultMoneyLocale): ParsedMoney {
  const { decimal, group } = separators(locale);
  const example = `1${group}234${decimal}50`;
  const cleaned = text.replace(spaces, "").replace(/^\$|\$$|USD$/gi, "");
  if (!cleaned) return { ok: false, message: "Enter an amount" };
  if (!/^[0-9.,]+$/.test(cleaned)) return { ok: false, message: `Enter an amount in dollars, like ${example}` };
  const at = cleaned.lastIndexOf(decimal);
  const whole = at === -1 ? cleaned : cleaned.slice(0, at);
  const fraction = at === -1 ? "" : cleaned.slice(at + 1);
  if (at !== -1 && (fraction.length < 1 || fraction.length > 2 || !/^\d+$/.test(fraction)))
    return { ok: false, message: `Use "${decimal}" before at most 2 digits of cents, like ${example}` };
  if (whole.includes(decimal)) return { ok: false, message: `"${decimal}" may appear once, before the cents, like ${example}` };
  const groups = whole.split(group);
  const grouped = groups.length === 1 || (/^\d{1,3}$/.test(groups[0]!) && groups.slice(1).every((g) => /^\d{3}$/.test(g)));
  if (!grouped || !whole)
    return {
      ok: false,
      message: `Cannot read "${text.trim()}": in your locale "${group}" separates thousands and "${decimal}" the cents, like ${example}`,
    };
  const dollars = groups.join("").replace(/^0+(?=\d)/, "");
  if (dollars.length > maxDollarDigits) return { ok: false, message: "The amount is too large" };
  return { ok: true, cents: Number(dollars) * 100 + Number(fraction.padEnd(2, "0") || 0) };
}

/** What the money input shows it understood: "$1.50", or the reason it cannot read the text. */
export function understood(text: string, locale: string): string {
  if (!text.trim()) return "";
  const parsed = parseMoney(text, locale);
  return parsed.ok ? `Understood: ${formatMoney(parsed.cents, "USD", moneyLocale(locale))}` : parsed.message;
}

/** A money field of a form: what to call it, whether it may be empty (null) or zero. */
export type MoneyRule = { what: string; optional?: boolean; zero?: boolean };

/**
 * A form schema whose `money` fields are typed amounts, read as cents with the form's `locale`
 * field (the staff member's; the money input sends it). `optional` fields may be empty (null), `zero` ones 0.
 */
export function withMoney<S extends z.ZodRawShape, R extends Record<string, MoneyRule>>(shape: S, money: R) {
  const texts = Object.fromEntries(Object.entries(money).map(([name, rule]) => [name, z.string({ error: `${rule.what} is required` })]));
  return z
    .object({ ...shape, ...texts, locale: z.string().optional() })
    .transform((form, ctx) => {
      const out: Record<string, unknown> = { ...form };
      const locale = moneyLocale((form as { locale?: unknown }).locale);
      for (const [name, rule] of Object.entries(money)) {
        const text = String((form as Record<string, unknown>)[name] ?? "");
        if (!text.trim() && rule.optional) {
          out[name] = null;
          continue;
        }
        const parsed = parseMoney(text, locale);
        if (!parsed.ok) ctx.addIssue({ code: "custom", path: [name], message: `${rule.what}: ${parsed.message}` });
        else if (parsed.cents <= 0 && !rule.zero) ctx.addIssue({ code: "custom", path: [name], message: `The ${rule.what} must be more than 0` });
        else out[name] = parsed.cents;
      }
      return out as z.infer<z.ZodObject<S>> & { [K in keyof R]: R[K] extends { optional: true } ? number | null : number };
    });
}

/** Cents as staff would type them in `locale` ("1234.50", "1234,50"), for a money input's value; "" for null. */
export function typedMoney(cents: number | null, locale: string): string {
  return cents === null ? "" : (cents / 100).toFixed(2).replace(".", separators(locale).decimal);
}
