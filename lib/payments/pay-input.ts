import ipaddr from "ipaddr.js";
import { z } from "zod";
import type { CustomerDetails, Session } from "@/db/schema";
import { isSafeText, safeText } from "@/lib/http/validation";
import type { PaymentView } from "./get-payment";

// Paying a session, its input and context (the hosted page, the sandbox helper, POST /session).

export type PayInput = {
  /** Catalogue id: "stripe_credit", "stripe_apple_pay", "stripe_google_pay", "sandbox_bitcoin", "sandbox_pix_br". */
  paymentMethodId: string;
  /** Sandbox businesses' card form only (Stripe's test cards). */
  card?: { number: string; expMonth: number; expYear: number; cvc: string };
  /** Live businesses: a pm_… created by Stripe.js in the browser. */
  stripePaymentMethodId?: string;
  customerDetails?: {
    name?: string;
    email?: string;
    phone?: string;
    address?: {
      line1?: string;
      line2?: string;
      city?: string;
      state?: string;
      postal_code?: string;
      country?: string;
    };
  };
};

export type PayContext = {
  ip: string | null;
  userAgent: string | null;
  /** `session_start`: POST /session starting a forced redirect method (no payer yet: no IP check). */
  via: "checkout" | "sandbox_helper" | "session_start";
  /** The hosted checkout's language (its Accept-Language, as the page negotiated it): receipts speak it. */
  locale?: string | null;
};

export type PayResult = {
  /** The interface's Payment object after the attempt. */
  payment: PaymentView;
  next?: { type: "redirect"; url: string } | { type: "authenticate"; challengeUrl: string };
  /** Why this attempt failed, when it did (the payment reads `failed` or `declined`). */
  failure?: { code: string; message: string };
};

const text = (max: number) => z.string().max(max).refine(isSafeText, safeText).optional();
/** Billing details as the page and the sandbox helper send them (all optional). */
export const customerDetailsSchema = z.object({
  name: text(200),
  email: text(254),
  phone: text(40),
  address: z
    .object({
      line1: text(200),
      line2: text(200),
      city: text(100),
      state: text(100),
      postal_code: text(20),
      country: z
        .string()
        .regex(/^[A-Za-z]{2}$/, "must be a two-letter country code")
        .optional(),
    })
    .optional(),
});

export const payInputSchema = z.object({
  paymentMethodId: z.string().min(1).max(64).refine(isSafeText, safeText),
  card: z
    .object({
      number: z.string().regex(/^\d{12,19}$/, "must be 12 to 19 digits"),
      expMonth: z.number().int().min(1).max(12),
      expYear: z.number().int().min(0).max(9999),
      cvc: z.string().regex(/^\d{3,4}$/, "must be 3 or 4 digits"),
    })
    .optional(),
  stripePaymentMethodId: z
    .string()
    .regex(/^pm_[A-Za-z0-9_]{1,200}$/, "must be a Stripe PaymentMethod id")
    .optional(),
  customerDetails: customerDetailsSchema.optional(),
});
export type ParsedInput = z.infer<typeof payInputSchema>;

export function normalizedIp(ip: string | null | undefined): string | null {
  if (!ip) return null;
  try {
    return ipaddr.process(ip.trim()).toNormalizedString();
  } catch {
    return null;
  }
}

/** The session's prefill under what the payer typed. */
export function billingOf(session: Session, details: ParsedInput["customerDetails"]): CustomerDetails {
  const prefill = session.customerPrefill ?? {};
  const address = details?.address;
  return {
    name: details?.name || prefill.name || null,
    email: details?.email || prefill.email || session.customerEmail || null,
    phone: details?.phone || prefill.phone || null,
    address: address
      ? {
          line1: address.line1 || null,
          line2: address.line2 || null,
          city: address.city || null,
          state: address.state || null,
          postal_code: address.postal_code || null,
          country: address.country ? address.country.toUpperCase() : null,
        }
      : null,
  };
}

export function providerMetadata(session: Session, attemptId: string): Record<string, string> {
  return {
    kassa_business_id: session.businessId,
    kassa_session_id: session.id,
    kassa_attempt_id: attemptId,
    kassa_order_id: session.orderId.slice(0, 500),
  };
}
