import type { Db } from "@/db/client";
import { readProviderConfig } from "@/lib/providers/provider-config";
import type { StripeProviderConfig } from "@/lib/providers/stripe/stripe-config";

/**
 * A live business's Stripe publishable key, from its Stripe provider configuration. Null when
 * Stripe is not connected, inactive, unreadable or has no publishable key: the page then says card
 * payments are not configured. Only a `pk_live_`/`pk_test_` value is ever handed to a browser.
 */
export async function stripePublishableKey(db: Db, businessId: string): Promise<string | null> {
  let stored: Awaited<ReturnType<typeof readProviderConfig<StripeProviderConfig>>>;
  try {
    stored = await readProviderConfig<StripeProviderConfig>(db, businessId, "stripe");
  } catch {
    return null; // undecryptable (ENCRYPTION_KEY changed): as if not connected
  }
  const key = stored?.active ? stored.config.publishableKey : undefined;
  return typeof key === "string" && /^pk_(live|test)_[A-Za-z0-9_]{8,247}$/.test(key) ? key : null;
}
