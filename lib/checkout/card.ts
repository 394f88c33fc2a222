import cardValidator from "card-validator";
import { groupCardDigits } from "./card-input";

export { formatExpiryInput, testCards, type TestCardOutcome } from "./card-input";

/** Digits only: what the customer typed, without spaces or dashes. */
export function cardDigits(value: string): string {
  return value.replace(/[\s-]/g, "");
}

/** Groups digits the way the card is printed: 4242 4242 4242 4242, or 3782 822463 10005 for Amex. */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, "").slice(0, 19);
  return groupCardDigits(digits, cardValidator.number(digits).card?.gaps);
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
