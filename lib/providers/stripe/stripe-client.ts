import Stripe from "stripe";
import { env } from "@/lib/env";
import { observedHttpClient } from "./observed-http-client";

/** Where the SDK sends requests when not to api.stripe.com: the emulator (or a stripe-mock in tests). */
export type StripeApiLocation = { host: string; port: number; protocol: "http" | "https" };

/** STRIPE_API_BASE (tests only) as the SDK's host/port/protocol; undefined means api.stripe.com. */
export function configuredStripeApi(): StripeApiLocation | undefined {
  const base = env().STRIPE_API_BASE;
  if (!base) return undefined;
  const url = new URL(base);
  const protocol = url.protocol === "https:" ? "https" : "http";
  return { host: url.hostname, port: Number(url.port || (protocol === "https" ? 443 : 80)), protocol };
}

/**
 * The official SDK for one account. Network retries reuse the SDK's idempotency keys, and every
 * money-moving call of the adapter passes its own key (the attempt or refund id) as well.
 */
export function stripeClient(secretKey: string, api?: StripeApiLocation): Stripe {
  return new Stripe(secretKey, {
    ...(api ? { host: api.host, port: api.port, protocol: api.protocol } : {}),
    maxNetworkRetries: 2,
    // Every request counted, logged when it fails and traced (./observed-http-client.ts).
    httpClient: observedHttpClient(api ? "stripe_emulator" : "stripe"),
    timeout: 30_000,
    appInfo: { name: "Kassa" },
  });
}

/** Verifies Stripe-Signature offline (no request is sent: the key is never used). */
const verifier = new Stripe("sk_test_signature_verification_only");

/** The event when the signature verifies with this secret, else null. */
export function verifyStripeEvent(payload: string, signature: string, secret: string): Stripe.Event | null {
  try {
    return verifier.webhooks.constructEvent(payload, signature, secret);
  } catch {
    return null;
  }
}

/** The events a subscription needs at Kassa's endpoint (the interface's inbound provider events). */
export const stripeSubscriptionEvents = [
  "invoice.paid",
  "invoice.payment_failed",
  "invoice.payment_action_required",
  "customer.subscription.updated",
  "customer.subscription.deleted",
] as const;

/** Inbound events Kassa's endpoint subscribes to (payments now; subscriptions per the interface). */
export const stripeWebhookEvents = [
  "payment_intent.succeeded",
  "payment_intent.payment_failed",
  "payment_intent.canceled",
  "payment_intent.requires_action",
  "charge.refunded",
  "charge.refund.updated",
  "refund.updated",
  "refund.failed",
  "invoice.paid",
  "invoice.payment_failed",
  "invoice.payment_action_required",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "charge.dispute.created",
  "charge.dispute.updated",
  "charge.dispute.funds_withdrawn",
  "charge.dispute.funds_reinstated",
  "charge.dispute.closed",
] as const;
