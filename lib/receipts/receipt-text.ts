import type { ReceiptContent, ReceiptKind } from "@/db/schema";
import { formatAmount, interpolate, intlLocale, isLocale, messagesFor, type Locale } from "@/lib/i18n";
import type { MailParts } from "@/lib/mail/render-mail";

/** A stored locale as one the pages speak (an unknown one reads as the default). */
export function receiptLocale(value: string | null | undefined): Locale {
  return isLocale(value) ? value : "en";
}

const brands: Record<string, string> = { visa: "Visa", mastercard: "Mastercard", amex: "American Express", discover: "Discover" };

/** "Visa ending in 4242", "Pix", or null when nothing is known of the method. */
export function methodText(method: ReceiptContent["method"], locale: Locale): string | null {
  if (!method) return null;
  if (method.last4) {
    const brand = method.brand ? (brands[method.brand.toLowerCase()] ?? method.brand) : "Card";
    return interpolate(messagesFor(locale).receipt.cardEnding, { brand, last4: method.last4 });
  }
  const names = messagesFor(locale).methods as Record<string, string>;
  return names[method.type] ?? method.type.replaceAll("_", " ");
}

export function receiptDate(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: "long", timeZone: "UTC" }).format(new Date(iso));
}

/** The receipt's lines as label and amount, in order: items, the fee when shown, the total. */
export function receiptLines(content: ReceiptContent, kind: ReceiptKind, currency: string, locale: Locale) {
  const m = messagesFor(locale).receipt;
  const money = (cents: number) => formatAmount(cents, currency, locale);
  const lines = content.items.map((item) => ({
    label: interpolate(m.item, { name: item.name, quantity: item.quantity }),
    amount: money(item.price * item.quantity),
  }));
  if (content.fee > 0) lines.push({ label: m.fee, amount: money(content.fee) });
  lines.push({ label: m.total, amount: money(content.total) });
  if (kind === "refund" && content.refunded) lines.push({ label: m.refunded, amount: `−${money(content.refunded)}` });
  return lines;
}

/** The receipt e-mail in the payer's language; the business's name and logo head it (renderMail). */
export function receiptMail(input: {
  kind: ReceiptKind;
  content: ReceiptContent;
  currency: string;
  locale: Locale;
  url: string;
}): MailParts {
  const { kind, content, currency, locale } = input;
  const m = messagesFor(locale).receipt;
  const merchant = content.businessName;
  const intro =
    kind === "refund"
      ? interpolate(m.refundIntro, { merchant, amount: formatAmount(content.refunded ?? 0, currency, locale) })
      : interpolate(content.cycle && content.cycle > 1 ? m.renewalIntro : m.intro, { merchant });
  const method = methodText(content.method, locale);
  return {
    subject: interpolate(kind === "refund" ? m.refundSubject : m.subject, { merchant }),
    paragraphs: [
      intro,
      ...receiptLines(content, kind, currency, locale).map((line) => `${line.label}: ${line.amount}`),
      `${m.date}: ${receiptDate(content.paidAt, locale)}`,
      ...(method ? [`${m.method}: ${method}`] : []),
      `${m.order}: ${content.orderId}`,
    ],
    action: { label: m.view, url: input.url },
    footnote: interpolate(m.footnote, { merchant }),
  };
}
