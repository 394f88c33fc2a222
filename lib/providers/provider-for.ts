import type Stripe from "stripe";
import type { Db } from "@/db/client";
import type { Business } from "@/db/schema";
import { ProviderError } from "@/lib/errors";
import { instrumentProvider } from "@/lib/metrics/provider-metrics";
import { readProviderConfig } from "./provider-config";
import { SandboxRedirectAdapter } from "./sandbox/sandbox-adapter";
import { sandboxEmulator, sandboxStripeKey } from "./stripe/sandbox-emulator";
import { StripeAdapter } from "./stripe/stripe-adapter";
import { stripeClient } from "./stripe/stripe-client";
import type { StripeProviderConfig } from "./stripe/stripe-config";
import { ensureStripeEndpoint, sandboxStripeWebhookUrl } from "./stripe/stripe-endpoint";
import type { CardProvider, PaymentProvider, RedirectProvider } from "./types";

type BusinessRef = Pick<Business, "id" | "mode">;

// Sandbox endpoints ensured in this process, per emulator, then per URL and business (on
// globalThis: the server's modules and Next's bundles share it, so one endpoint is created, not one
// per module copy). Keyed by the emulator itself: a stopped emulator's entries go with it, and a
// new emulator that happens to get the old one's port starts with none.
const ensuredKey = Symbol.for("kassa.sandboxStripeEndpoints");
const ensured = ((globalThis as Record<symbol, unknown>)[ensuredKey] ??= new WeakMap()) as WeakMap<
  object,
  Map<string, Promise<void>>
>;

/**
 * The Stripe SDK for a business: its own account (live), or its account on this process's
 * emulator (sandbox), whose webhook endpoint is created on first use.
 */
export async function stripeFor(db: Db, business: BusinessRef): Promise<Stripe> {
  if (business.mode === "sandbox") {
    const emulator = await sandboxEmulator();
    const stripe = stripeClient(sandboxStripeKey(business.id), emulator.stripeConfig);
    const url = sandboxStripeWebhookUrl();
    let onEmulator = ensured.get(emulator);
    if (!onEmulator) ensured.set(emulator, (onEmulator = new Map()));
    const memo = `${url}|${business.id}`;
    let ready = onEmulator.get(memo);
    if (!ready) {
      ready = ensureStripeEndpoint(db, business.id, stripe, { emulatorUrl: emulator.url }, url).then(
        () => undefined,
      );
      onEmulator.set(memo, ready);
      ready.catch(() => onEmulator.delete(memo));
    }
    await ready;
    return stripe;
  }
  const stored = await readProviderConfig<StripeProviderConfig>(db, business.id, "stripe");
  if (!stored?.active || !stored.config.secretKey)
    throw new ProviderError("Stripe is not connected for this business", "provider_not_connected");
  return stripeClient(stored.config.secretKey, stored.config.api);
}

export async function providerFor(db: Db, business: BusinessRef, provider: string): Promise<PaymentProvider> {
  // Every adapter call is timed and its throws counted (lib/metrics, docs/operations.md).
  if (provider === "stripe") return instrumentProvider(new StripeAdapter(await stripeFor(db, business)), provider);
  if (provider === "sandbox") {
    if (business.mode !== "sandbox")
      throw new ProviderError("The sandbox provider serves sandbox businesses only");
    return instrumentProvider(new SandboxRedirectAdapter(db, business.id), provider);
  }
  throw new ProviderError(`Unknown provider ${provider}`);
}

export async function cardProviderFor(
  db: Db,
  business: BusinessRef,
  provider: string,
): Promise<CardProvider> {
  const adapter = await providerFor(db, business, provider);
  if (adapter.flow !== "card") throw new ProviderError(`${provider} is not a card provider`);
  return adapter;
}

export async function redirectProviderFor(
  db: Db,
  business: BusinessRef,
  provider: string,
): Promise<RedirectProvider> {
  const adapter = await providerFor(db, business, provider);
  if (adapter.flow !== "redirect") throw new ProviderError(`${provider} is not a redirect provider`);
  return adapter;
}
