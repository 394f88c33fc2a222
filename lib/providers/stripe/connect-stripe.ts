import { and, eq } from "drizzle-orm";
import Stripe from "stripe";
import type { Db } from "@/db/client";
import { businesses, businessProviders } from "@/db/schema";
import { encrypt } from "@/lib/crypto";
import { NotFoundError, ProviderError, ValidationError } from "@/lib/errors";
import { readProviderConfig } from "../provider-config";
import { stripeClient, type StripeApiLocation } from "./stripe-client";
import type { StripeProviderConfig } from "./stripe-config";
import { ensureStripeEndpoint } from "./stripe-endpoint";

export type ConnectStripeInput = {
  /** `sk_live_…`/`sk_test_…`, or a restricted key `rk_…`. */
  secretKey: string;
  /** `pk_live_…`/`pk_test_…`, for Stripe.js on the hosted page. */
  publishableKey: string;
  /** The endpoint's signing secret, when the key may not create endpoints (restricted keys). */
  webhookSecret?: string;
};

export type ConnectedStripe = { active: true; webhookEndpointId: string | null; endpointCreated: boolean };

/**
 * Connects a live business's own Stripe account: checks the key with Stripe, creates Kassa's
 * endpoint `{base_url}/payment/stripe/webhook` on that account when the key allows it (keeping
 * its signing secret), stores keys and secret encrypted, and activates the Stripe provider (the
 * methods card, Apple Pay and Google Pay become available). A restricted key that cannot manage
 * endpoints needs `webhookSecret` from the merchant.
 */
export async function connectStripe(
  db: Db,
  businessId: string,
  input: ConnectStripeInput,
  options: { api?: StripeApiLocation } = {},
): Promise<ConnectedStripe> {
  const errors: Record<string, string[]> = {};
  const secret = /^(sk|rk)_(live|test)_[A-Za-z0-9_]{8,247}$/.exec(input.secretKey ?? "");
  const publishable = /^pk_(live|test)_[A-Za-z0-9_]{8,247}$/.exec(input.publishableKey ?? "");
  if (!secret) errors.secretKey = ["must be a Stripe secret key (sk_live_…) or restricted key (rk_live_…)"];
  if (!publishable) errors.publishableKey = ["must be a Stripe publishable key (pk_live_…)"];
  if (secret && publishable && secret[2] !== publishable[1])
    errors.publishableKey = ["must be of the same mode (live or test) as the secret key"];
  if (input.webhookSecret !== undefined && !/^whsec_[A-Za-z0-9_]{8,247}$/.test(input.webhookSecret))
    errors.webhookSecret = ["must be a Stripe signing secret (whsec_…)"];
  if (Object.keys(errors).length) throw new ValidationError(errors);

  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId)).limit(1);
  if (!business) throw new NotFoundError("business_not_found", "No such business");
  if (business.mode !== "live")
    throw ValidationError.field("secretKey", "Sandbox businesses use the Stripe emulator: no key to connect");

  const stripe = stripeClient(input.secretKey, options.api);
  try {
    await stripe.balance.retrieve();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeAuthenticationError)
      throw ValidationError.field("secretKey", "Stripe does not accept this key");
    if (!(error instanceof Stripe.errors.StripePermissionError))
      throw new ProviderError(
        `Stripe could not be reached: ${(error as Error).message}`,
        "provider_unavailable",
      );
  }

  // Keys first (inactive), so the endpoint's secret is stored next to them.
  const previous = (await readProviderConfig<StripeProviderConfig>(db, businessId, "stripe"))?.config ?? {};
  const config: Partial<StripeProviderConfig> = {
    ...previous,
    secretKey: input.secretKey,
    publishableKey: input.publishableKey,
    ...(options.api ? { api: options.api } : {}),
    ...(input.webhookSecret ? { webhookSecret: input.webhookSecret, webhookEndpointId: undefined } : {}),
  };
  await saveConfig(db, businessId, config, false);

  let endpoint: { endpointId: string | null; created: boolean } = { endpointId: null, created: false };
  if (!input.webhookSecret) {
    try {
      endpoint = await ensureStripeEndpoint(db, businessId, stripe);
    } catch (error) {
      if (error instanceof Stripe.errors.StripePermissionError)
        throw ValidationError.field(
          "webhookSecret",
          "This key may not manage webhook endpoints: create the endpoint in Stripe and give its signing secret",
        );
      throw new ProviderError(`Stripe refused the webhook endpoint: ${(error as Error).message}`);
    }
  }
  const stored = (await readProviderConfig<StripeProviderConfig>(db, businessId, "stripe"))?.config ?? config;
  await saveConfig(db, businessId, stored, true);
  return { active: true, webhookEndpointId: endpoint.endpointId, endpointCreated: endpoint.created };
}

async function saveConfig(
  db: Db,
  businessId: string,
  config: Partial<StripeProviderConfig>,
  active: boolean,
) {
  const configEnc = encrypt(JSON.stringify(config));
  const updated = await db
    .update(businessProviders)
    .set({ configEnc, active })
    .where(and(eq(businessProviders.businessId, businessId), eq(businessProviders.provider, "stripe")))
    .returning({ provider: businessProviders.provider });
  if (!updated.length)
    await db.insert(businessProviders).values({ businessId, provider: "stripe", configEnc, active });
}

/** Deactivates a live business's Stripe provider and forgets its keys. */
export async function disconnectStripe(db: Db, businessId: string): Promise<void> {
  await db
    .update(businessProviders)
    .set({ configEnc: null, active: false })
    .where(and(eq(businessProviders.businessId, businessId), eq(businessProviders.provider, "stripe")));
}
