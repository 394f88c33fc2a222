import type Stripe from "stripe";
import { invalidRequest } from "../errors";

export const customerId = (intent: Stripe.PaymentIntent): string | null =>
  typeof intent.customer === "string" ? intent.customer : (intent.customer?.id ?? null);

export const paymentMethodId = (intent: Stripe.PaymentIntent): string | null =>
  typeof intent.payment_method === "string" ? intent.payment_method : (intent.payment_method?.id ?? null);

export function requireIntentStatus(
  intent: Stripe.PaymentIntent,
  allowed: Stripe.PaymentIntent.Status[],
  [verb, pastTense]: [string, string],
): void {
  if (allowed.includes(intent.status)) return;
  throw invalidRequest(
    `You cannot ${verb} this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be ${pastTense}: ${allowed.join(", ")}.`,
    { code: "payment_intent_unexpected_state" },
  );
}
