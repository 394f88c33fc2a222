import { and, eq } from "drizzle-orm";
import Stripe from "stripe";
import type { Db } from "@/db/client";
import { businesses, businessPaymentMethods, businessProviders, paymentMethods } from "@/db/schema";
import { encrypt } from "@/lib/crypto";
import { BadRequestError, NotFoundError, ValidationError } from "@/lib/errors";
import { readProviderConfig } from "../provider-config";
import {
  configuredStripeApi,
  stripeClient,
  stripeWebhookEvents,
  type StripeApiLocation,
} from "./stripe-client";
import type { StripeProviderConfig } from "./stripe-config";
import { ensureStripeEndpoint, eventsMissingFrom, stripeWebhookUrl } from "./stripe-endpoint";
import { isStripePermissionError, stripeFailure } from "./stripe-failure";

export type ConnectStripeInput = {
  /** `sk_live_…`/`sk_test_…`, or a restricted key `rk_…`. */
  secretKey: string;
  /** `pk_live_…`/`pk_test_…`, for Stripe.js on the hosted page; a reconnect keeps the stored one. */
  publishableKey?: string;
  /** The signing secret of an endpoint the merchant created (when the key may not create one). */
  webhookSecret?: string;
};

/** What the merchant still has to provide; only `webhook_secret` keeps the card methods off. */
export type StripeSetupItem = "webhook_secret" | "webhook_endpoint" | "publishable_key";

export type StripeEndpointView = {
  id: string;
  url: string;
  events: string[];
  status: string;
  /** Created by this call (false: an endpoint that was already there). */
  created: boolean;
  /** Events Kassa subscribes to that this endpoint does not receive. */
  missingEvents: string[];
};

export type ConnectedStripe = {
  businessId: string;
  /** `acct_…`, null when the key may not read the account (restricted keys). */
  accountId: string | null;
  keyKind: "secret" | "restricted";
  livemode: boolean;
  /** Card, Apple Pay and Google Pay are available: the key works and the signing secret is known. */
  active: boolean;
  /** Kassa's endpoint on the account, null when the key may not read endpoints (or none exists). */
  webhookEndpoint: StripeEndpointView | null;
  webhookSecretStored: boolean;
  publishableKeyStored: boolean;
  missing: StripeSetupItem[];
  /** The endpoint the merchant must configure when Kassa cannot: URL and events. */
  requiredEndpoint: { url: string; events: string[] };
  /** The business's Stripe methods now available (ids such as `stripe_credit`). */
  methods: string[];
};

/**
 * Connects a live business's own Stripe account (the dashboard and `npx kassa stripe connect`):
 * checks the key with Stripe, creates Kassa's endpoint `{base_url}/payment/stripe/webhook` on the
 * account when the key allows it (keeping its signing secret) or takes the secret the merchant
 * pasted, stores keys and secret encrypted, and activates card, Apple Pay and Google Pay once the
 * signing secret is known. Without it the key is kept, the methods stay off, and the result
 * says what to configure (`missing`, `requiredEndpoint`). Clears the cached setup check.
 */
export async function connectStripe(
  db: Db,
  businessId: string,
  input: ConnectStripeInput,
  options: { api?: StripeApiLocation } = {},
): Promise<ConnectedStripe> {
  const errors: Record<string, string[]> = {};
  const secret = /^(sk|rk)_(live|test)_[A-Za-z0-9_]{8,247}$/.exec(input.secretKey ?? "");
  const publishable =
    input.publishableKey === undefined
      ? null
      : /^pk_(live|test)_[A-Za-z0-9_]{8,247}$/.exec(input.publishableKey);
  if (!secret) errors.secretKey = ["must be a Stripe secret key (sk_live_…) or restricted key (rk_live_…)"];
  if (input.publishableKey !== undefined && !publishable)
    errors.publishableKey = ["must be a Stripe publishable key (pk_live_…)"];
  if (secret && publishable && secret[2] !== publishable[1])
    errors.publishableKey = ["must be of the same mode (live or test) as the secret key"];
  if (input.webhookSecret !== undefined && !/^whsec_[A-Za-z0-9_]{8,247}$/.test(input.webhookSecret))
    errors.webhookSecret = ["must be a Stripe signing secret (whsec_…)"];
  if (!secret || Object.keys(errors).length) throw new ValidationError(errors);

  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId)).limit(1);
  if (!business) throw new NotFoundError("business_not_found", `No business ${businessId}`);
  if (business.mode !== "live")
    throw new BadRequestError(
      "sandbox_business",
      "Sandbox businesses are connected to their Stripe emulator account automatically: there is no key to connect",
    );

  const api = options.api ?? configuredStripeApi();
  const stripe = stripeClient(input.secretKey, api);
  let accountId: string | null = null;
  try {
    accountId = (await stripe.accounts.retrieveCurrent()).id;
  } catch (error) {
    if (error instanceof Stripe.errors.StripeAuthenticationError)
      throw ValidationError.field("secretKey", `Stripe refused this key: ${error.message}`);
    // A restricted key without the account permission is still a working key.
    if (!isStripePermissionError(error)) throw stripeFailure(error, "checking the key");
  }

  const stored = await readProviderConfig<StripeProviderConfig>(db, businessId, "stripe");
  const previous = stored?.config ?? {};
  // What was kept for the same account (endpoint, its secret, publishable key) stays valid.
  const sameAccount =
    previous.secretKey === input.secretKey || (accountId !== null && previous.accountId === accountId);
  const url = stripeWebhookUrl();
  let config: Partial<StripeProviderConfig> = {
    secretKey: input.secretKey,
    ...(accountId ? { accountId } : {}),
    ...(api ? { api } : {}),
    ...(input.publishableKey
      ? { publishableKey: input.publishableKey }
      : sameAccount && previous.publishableKey
        ? { publishableKey: previous.publishableKey }
        : {}),
    ...(sameAccount && previous.webhookSecret
      ? {
          webhookSecret: previous.webhookSecret,
          webhookEndpointId: previous.webhookEndpointId,
          webhookUrl: previous.webhookUrl,
        }
      : {}),
  };
  await storeStripeConfig(db, businessId, config, sameAccount ? (stored?.active ?? false) : false);

  let endpoint: StripeEndpointView | null = null;
  if (input.webhookSecret) {
    const found = await findEndpoint(stripe, url);
    config = {
      ...config,
      webhookSecret: input.webhookSecret,
      webhookEndpointId: found?.id,
      webhookUrl: url,
    };
    if (found) endpoint = view(found, false);
  } else {
    try {
      const ensured = await ensureStripeEndpoint(db, businessId, stripe);
      endpoint = view(ensured.endpoint, ensured.created);
      config = {
        ...config,
        webhookSecret: ensured.secret,
        webhookEndpointId: ensured.endpointId,
        webhookUrl: url,
      };
    } catch (error) {
      if (!isStripePermissionError(error)) throw stripeFailure(error, "creating the webhook endpoint");
    }
  }

  const active = Boolean(config.webhookSecret);
  await storeStripeConfig(db, businessId, config, active);

  const missing: StripeSetupItem[] = [];
  if (!active) missing.push("webhook_secret");
  else if (
    input.webhookSecret &&
    endpoint &&
    (endpoint.status !== "enabled" || endpoint.missingEvents.length)
  )
    missing.push("webhook_endpoint");
  if (!config.publishableKey) missing.push("publishable_key");
  return {
    businessId,
    accountId,
    keyKind: secret[1] === "rk" ? "restricted" : "secret",
    livemode: secret[2] === "live",
    active,
    webhookEndpoint: endpoint,
    webhookSecretStored: active,
    publishableKeyStored: Boolean(config.publishableKey),
    missing,
    requiredEndpoint: { url, events: [...stripeWebhookEvents] },
    methods: active ? await stripeMethods(db, businessId) : [],
  };
}

function view(endpoint: Stripe.WebhookEndpoint, created: boolean): StripeEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.enabled_events,
    status: endpoint.status,
    created,
    missingEvents:
      endpoint.status === "enabled"
        ? eventsMissingFrom(endpoint, stripeWebhookEvents)
        : [...stripeWebhookEvents],
  };
}

/** The endpoint at Kassa's URL (enabled first), or null; null too when the key may not read endpoints. */
async function findEndpoint(stripe: Stripe, url: string): Promise<Stripe.WebhookEndpoint | null> {
  try {
    const listed = await stripe.webhookEndpoints.list({ limit: 100 });
    const ours = listed.data.filter((endpoint) => endpoint.url === url);
    return ours.find((endpoint) => endpoint.status === "enabled") ?? ours[0] ?? null;
  } catch (error) {
    if (isStripePermissionError(error)) return null;
    throw stripeFailure(error, "reading webhook endpoints");
  }
}

async function stripeMethods(db: Db, businessId: string): Promise<string[]> {
  const rows = await db
    .select({ id: paymentMethods.id })
    .from(businessPaymentMethods)
    .innerJoin(paymentMethods, eq(paymentMethods.id, businessPaymentMethods.methodId))
    .where(
      and(
        eq(businessPaymentMethods.businessId, businessId),
        eq(businessPaymentMethods.enabled, true),
        eq(paymentMethods.provider, "stripe"),
      ),
    )
    .orderBy(paymentMethods.sortOrder);
  return rows.map((row) => row.id);
}

/** Replaces the whole configuration; any change of key or secret forgets the cached setup check. */
async function storeStripeConfig(
  db: Db,
  businessId: string,
  config: Partial<StripeProviderConfig>,
  active: boolean,
) {
  const values = {
    configEnc: encrypt(JSON.stringify(config)),
    active,
    setupCheckedAt: null,
    setupCheck: null,
  };
  await db
    .insert(businessProviders)
    .values({ businessId, provider: "stripe", ...values })
    .onConflictDoUpdate({ target: [businessProviders.businessId, businessProviders.provider], set: values });
}

/** Deactivates a live business's Stripe provider and forgets its keys. */
export async function disconnectStripe(db: Db, businessId: string): Promise<void> {
  await db
    .update(businessProviders)
    .set({ configEnc: null, active: false, setupCheckedAt: null, setupCheck: null })
    .where(and(eq(businessProviders.businessId, businessId), eq(businessProviders.provider, "stripe")));
}
