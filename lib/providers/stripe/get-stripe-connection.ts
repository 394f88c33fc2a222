import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses } from "@/db/schema";
import { readProviderConfig } from "../provider-config";
import { stripeWebhookEvents } from "./stripe-client";
import type { StripeProviderConfig } from "./stripe-config";
import type { StripeSetupItem } from "./connect-stripe";
import { stripeWebhookUrl } from "./stripe-endpoint";

/**
 * A live business's Stripe connection as the dashboard shows it: never a key or a secret, only
 * which kind of key is stored, its last four characters (as Stripe's dashboard shows keys), and
 * what is still missing.
 */
export type StripeConnectionView = {
  /** A key is stored (even if the methods are still off for want of the signing secret). */
  connected: boolean;
  /** Card, Apple Pay and Google Pay are on: the key works and the signing secret is known. */
  active: boolean;
  keyKind: "secret" | "restricted" | null;
  livemode: boolean | null;
  /** `sk_live_…4242`: enough to recognise the key, not to use it. */
  keyHint: string | null;
  accountId: string | null;
  webhookEndpointId: string | null;
  webhookSecretStored: boolean;
  publishableKeyStored: boolean;
  missing: StripeSetupItem[];
  /** The endpoint the merchant must create in Stripe when the key may not (URL and events). */
  requiredEndpoint: { url: string; events: string[] };
};

/** `sk_live_…4242` from `sk_live_51Abc…4242`; null without a key. */
export function keyHint(key: string | undefined): string | null {
  if (!key) return null;
  const prefix = /^(sk|rk)_(live|test)_/.exec(key)?.[0] ?? "";
  return `${prefix}…${key.slice(-4)}`;
}

/** What the Settings page and the overview show of a business's Stripe connection. */
export async function getStripeConnection(db: Db, businessId: string): Promise<StripeConnectionView> {
  const stored = await readProviderConfig<StripeProviderConfig>(db, businessId, "stripe");
  const config = stored?.config ?? {};
  const key = config.secretKey;
  const kind = key ? /^(sk|rk)_(live|test)_/.exec(key) : null;
  const missing: StripeSetupItem[] = [];
  if (key && !config.webhookSecret) missing.push("webhook_secret");
  if (key && !config.publishableKey) missing.push("publishable_key");
  return {
    connected: Boolean(key),
    active: Boolean(key && stored?.active),
    keyKind: kind ? (kind[1] === "rk" ? "restricted" : "secret") : null,
    livemode: kind ? kind[2] === "live" : null,
    keyHint: keyHint(key),
    accountId: config.accountId ?? null,
    webhookEndpointId: config.webhookEndpointId ?? null,
    webhookSecretStored: Boolean(config.webhookSecret),
    publishableKeyStored: Boolean(config.publishableKey),
    missing,
    requiredEndpoint: { url: stripeWebhookUrl(), events: [...stripeWebhookEvents] },
  };
}

/** A live business's connection; null for a sandbox business (always connected to its emulator). */
export async function liveStripeConnection(db: Db, businessId: string): Promise<StripeConnectionView | null> {
  const [business] = await db.select({ mode: businesses.mode }).from(businesses).where(eq(businesses.id, businessId)).limit(1);
  return business?.mode === "live" ? getStripeConnection(db, businessId) : null;
}
