import type { StripeApiLocation } from "./stripe-client";

/**
 * A business's Stripe configuration (business_providers.config_enc, encrypted JSON). Live
 * businesses store their own keys; sandbox businesses use the emulator with a key derived from
 * their id and store only the endpoint created on their emulator account.
 */
export type StripeProviderConfig = {
  /** The merchant's secret or restricted key (live businesses). */
  secretKey: string;
  /** Handed to the hosted page for Stripe.js (lib/checkout/stripe-publishable-key.ts). */
  publishableKey: string;
  /** `acct_…` of the connected account (unknown for a restricted key without that permission). */
  accountId: string;
  /** Signing secret of Kassa's endpoint on that account (`whsec_…`). */
  webhookSecret: string;
  webhookEndpointId: string;
  /** The URL the endpoint was created for: a change of base_url creates a new endpoint. */
  webhookUrl: string;
  /** The emulator instance the sandbox endpoint lives on (it does not survive a restart). */
  emulatorUrl: string;
  /** Tests only: talk to another Stripe API than api.stripe.com (the emulator). */
  api: StripeApiLocation;
};
