// The card form's dependency-free helpers, in the checkout page's first-load bundle. Brand rules
// (card-validator) live in card.ts, which the page loads only once the customer reaches the card.

/** Digits grouped at `gaps` (Visa's and most brands' by default): 4242 4242 4242 4242. */
export function groupCardDigits(value: string, gaps: readonly number[] = [4, 8, 12, 16]): string {
  const digits = value.replace(/\D/g, "").slice(0, 19);
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && gaps.includes(i)) out += " ";
    out += digits[i];
  }
  return out;
}

/** Keeps the expiry field as MM/YY while typing forward: "12" → "12/", "1229" → "12/29", "4" → "04/". */
export function formatExpiryInput(value: string): string {
  const digits = value.replace(/\D/g, "").slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1) return `0${digits}/`;
  if (digits.length >= 2) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return digits;
}

/** Stripe's test cards, with what each one does (docs/automation.md, "Sandbox helpers"). All Visa: 4-4-4-4. */
export const testCards = [
  { number: "4242424242424242", outcome: "success" },
  { number: "4000000000000002", outcome: "decline" },
  { number: "4000000000009995", outcome: "insufficient" },
  { number: "4000002760003184", outcome: "authentication" },
  { number: "4000000000009235", outcome: "review" },
  { number: "4100000000000019", outcome: "fraud" },
] as const;

export type TestCardOutcome = (typeof testCards)[number]["outcome"];
