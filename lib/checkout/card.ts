import cardValidator from "card-validator";

/** Digits only: what the customer typed, without spaces or dashes. */
export function cardDigits(value: string): string {
  return value.replace(/[\s-]/g, "");
}

/** Groups digits the way the card is printed: 4242 4242 4242 4242, or 3782 822463 10005 for Amex. */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, "").slice(0, 19);
  const gaps = cardValidator.number(digits).card?.gaps ?? [4, 8, 12, 16];
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && gaps.includes(i)) out += " ";
    out += digits[i];
  }
  return out;
}

/** A complete, Luhn-valid number of a length its brand uses. */
export function isValidCardNumber(value: string): boolean {
  const digits = cardDigits(value);
  return /^\d{12,19}$/.test(digits) && cardValidator.number(digits).isValid;
}

/** Digits of the security code for this number's brand (4 for Amex, else 3). */
export function cvcLength(cardNumber: string): number {
  return cardValidator.number(cardDigits(cardNumber)).card?.code.size ?? 3;
}

export type Expiry = { expMonth: number; expYear: number };

/** "MM/YY" (also "M/YY", "MMYY", "MM/YYYY") as month and four-digit year; null when unreadable. */
export function parseExpiry(value: string): Expiry | null {
  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match || (match[1]!.length === 1 && !value.includes("/"))) return null;
  const expMonth = Number(match[1]);
  const expYear = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (expMonth < 1 || expMonth > 12) return null;
  return { expMonth, expYear };
}

/** A card is good through the last day of its expiry month. */
export function isExpired({ expMonth, expYear }: Expiry, now = new Date()): boolean {
  const year = now.getFullYear();
  return expYear < year || (expYear === year && expMonth < now.getMonth() + 1);
}

/** Keeps the expiry field as MM/YY while typing forward: "12" → "12/", "1229" → "12/29", "4" → "04/". */
export function formatExpiryInput(value: string): string {
  const digits = value.replace(/\D/g, "").slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1) return `0${digits}/`;
  if (digits.length >= 2) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return digits;
}

/** Stripe's test cards, with what each one does (DESIGN.md, "Contract for automation"). */
export const testCards = [
  { number: "4242424242424242", outcome: "success" },
  { number: "4000000000000002", outcome: "decline" },
  { number: "4000000000009995", outcome: "insufficient" },
  { number: "4000002760003184", outcome: "authentication" },
  { number: "4000000000009235", outcome: "review" },
  { number: "4100000000000019", outcome: "fraud" },
] as const;

export type TestCardOutcome = (typeof testCards)[number]["outcome"];
