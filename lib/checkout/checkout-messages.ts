import type { Messages } from "@/lib/i18n/messages";

/** The words a plan's price is written with ("$25.00 every month"): the management page's own. */
export type PlanWords = { manage: Pick<Messages["manage"], "every" | "pricePerInterval"> };

/**
 * What the hosted checkout's client components read of a locale's messages. Whatever they are
 * given travels in the page's data for React (the RSC payload), so the page hands them this part
 * only, not the management page's and the receipt's words (decision 0033, fifth pass).
 */
export type CheckoutMessages = Pick<Messages, "summary" | "methods" | "wallet" | "card" | "billing" | "errors" | "pay" | "states"> & PlanWords;

export function checkoutMessages(messages: Messages): CheckoutMessages {
  const { summary, methods, wallet, card, billing, errors, pay, states, manage } = messages;
  return { summary, methods, wallet, card, billing, errors, pay, states, manage: { every: manage.every, pricePerInterval: manage.pricePerInterval } };
}
