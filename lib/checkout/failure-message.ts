import type { Messages } from "@/lib/i18n/messages";

/**
 * What to tell the customer about a failed attempt, from the provider's code
 * (`card_declined`, `card_declined/insufficient_funds`, `expired_card`, ...): a few are worth a
 * specific sentence, everything else reads as a plain decline.
 */
export function failureMessage(code: string | null | undefined, errors: Messages["errors"]): string {
  const c = code ?? "";
  if (c.includes("insufficient_funds")) return errors.insufficientFunds;
  if (c.includes("expired_card")) return errors.cardExpired;
  if (c.includes("incorrect_cvc")) return errors.incorrectCvc;
  if (c.includes("authentication")) return errors.authenticationFailed;
  if (c === "internal_error" || c.startsWith("provider_") || c === "api_error") return errors.generic;
  return errors.declined;
}
