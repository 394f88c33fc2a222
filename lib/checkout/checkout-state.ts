import type { PaymentStatus } from "@/db/schema";
import type { checkoutStates } from "./checkout-schemas";

/**
 * What the customer sees, from the payment's status:
 * - open: nothing tried yet; failed: the last attempt was declined, the form stays usable;
 * - processing: a redirect method or the bank is still working (pending or processing);
 * - pending_review: held by fraud screening; declined: refused by fraud screening and refunded;
 * - succeeded; expired: the link's 24 hours passed without a payment.
 */
export type CheckoutState = (typeof checkoutStates)[number];

export function checkoutState(status: PaymentStatus | null, sessionExpired: boolean): CheckoutState {
  switch (status) {
    case "succeeded":
      return "succeeded";
    case "pending":
    case "processing":
      return "processing";
    case "pending_review":
      return "pending_review";
    case "declined":
      return "declined";
    case "expired":
      return "expired";
    case "failed":
      return "failed";
    default:
      return sessionExpired ? "expired" : "open";
  }
}

/** States in which the customer may (still) pay. */
export function canPay(state: CheckoutState): boolean {
  return state === "open" || state === "failed";
}

/** How often the page re-reads a state that can still change by itself (ms); false: never. */
export function pollInterval(state: CheckoutState): number | false {
  if (state === "processing") return 2_000;
  if (state === "pending_review") return 15_000;
  return false;
}
