import type Stripe from "stripe";
import type { Db } from "@/db/client";
import { baseUrl, env } from "@/lib/env";
import { readProviderConfig, updateProviderConfig } from "../provider-config";
import { stripeWebhookEvents } from "./stripe-client";
import type { StripeProviderConfig } from "./stripe-config";

/** `{base_url}/payment/stripe/webhook`: one URL for every business (docs/architecture.md, Providers). */
export function stripeWebhookUrl(): string {
  return `${baseUrl()}/payment/stripe/webhook`;
}

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The same endpoint as the in-process emulator reaches it: the emulator only calls loopback
 * addresses, so behind a public base_url it calls this process on 127.0.0.1:PORT instead.
 */
export function sandboxStripeWebhookUrl(): string {
  const url = new URL(stripeWebhookUrl());
  if (loopbackHosts.has(url.hostname)) return url.toString();
  return `http://127.0.0.1:${env().PORT}${url.pathname}`;
}

export type EnsuredEndpoint = {
  endpointId: string;
  secret: string;
  created: boolean;
  endpoint: Stripe.WebhookEndpoint;
};

/** The events of `wanted` an endpoint does not receive (none when it takes `*`). */
export function eventsMissingFrom(endpoint: Stripe.WebhookEndpoint, wanted: readonly string[]): string[] {
  if (endpoint.enabled_events.includes("*")) return [];
  return wanted.filter((type) => !endpoint.enabled_events.includes(type));
}

/**
 * Makes sure the Stripe account has Kassa's endpoint, subscribed to the events Kassa needs, and
 * that Kassa holds its signing secret (encrypted). Reuses the stored endpoint when it still
 * exists with the same URL; otherwise creates one (Stripe shows a secret only at creation) and
 * deletes older endpoints of the same URL whose secret Kassa no longer has.
 * Throws Stripe's permission error when the key may not manage endpoints (restricted keys).
 */
export async function ensureStripeEndpoint(
  db: Db,
  businessId: string,
  stripe: Stripe,
  extra: Partial<StripeProviderConfig> = {},
  url = stripeWebhookUrl(),
): Promise<EnsuredEndpoint> {
  const stored = (await readProviderConfig<StripeProviderConfig>(db, businessId, "stripe"))?.config ?? {};
  const existing = await stripe.webhookEndpoints.list({ limit: 100 });
  const ours = existing.data.filter((endpoint) => endpoint.url === url);
  const kept = ours.find((endpoint) => endpoint.id === stored.webhookEndpointId);
  if (kept && stored.webhookSecret && (!extra.emulatorUrl || extra.emulatorUrl === stored.emulatorUrl)) {
    const missing = eventsMissingFrom(kept, stripeWebhookEvents);
    let endpoint = kept;
    if (missing.length || kept.status !== "enabled")
      endpoint = await stripe.webhookEndpoints.update(kept.id, {
        enabled_events: (kept.enabled_events.includes("*")
          ? ["*"]
          : [
              ...new Set([...kept.enabled_events, ...stripeWebhookEvents]),
            ]) as Stripe.WebhookEndpointUpdateParams.EnabledEvent[],
        disabled: false,
      });
    return { endpointId: kept.id, secret: stored.webhookSecret, created: false, endpoint };
  }
  const endpoint = await stripe.webhookEndpoints.create({
    url,
    enabled_events: [...stripeWebhookEvents],
    description: "Kassa (payments and subscriptions)",
    metadata: { kassa_business_id: businessId },
  });
  if (!endpoint.secret) throw new Error("Stripe did not return the new endpoint's signing secret");
  await updateProviderConfig<StripeProviderConfig>(db, businessId, "stripe", {
    ...extra,
    webhookEndpointId: endpoint.id,
    webhookSecret: endpoint.secret,
    webhookUrl: url,
  });
  for (const stale of ours) await stripe.webhookEndpoints.del(stale.id).catch(() => undefined);
  return { endpointId: endpoint.id, secret: endpoint.secret, created: true, endpoint };
}
