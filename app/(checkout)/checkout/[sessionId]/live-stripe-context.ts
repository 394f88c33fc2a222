"use client";

import { createContext, type ComponentType } from "react";
import type { PayRequest } from "@/lib/checkout/pay-request";

export type CustomerDetails = NonNullable<PayRequest["customerDetails"]>;
export type WalletKind = "apple_pay" | "google_pay";

/**
 * What the live (Stripe.js) part lends the payment form. It lives in its own lazily loaded chunk
 * (live-stripe.tsx), so sandbox pages never download Stripe's code nor load Stripe.js.
 */
export type LiveStripe = {
  ready: boolean;
  /** Stripe's Payment Element (cards), billing details come from our own form. */
  CardElement: ComponentType;
  /** Stripe's Express Checkout Element, limited to Apple Pay and Google Pay. */
  ExpressButtons: ComponentType<{
    applePay: boolean;
    googlePay: boolean;
    onPaymentMethod: (kind: WalletKind, paymentMethodId: string, details: CustomerDetails) => Promise<boolean>;
  }>;
  /** Validates the Payment Element and turns it into a pm_… id with these billing details. */
  createPaymentMethod: (details: CustomerDetails) => Promise<{ id: string } | { error: string }>;
};

export const LiveStripeContext = createContext<LiveStripe | null>(null);
