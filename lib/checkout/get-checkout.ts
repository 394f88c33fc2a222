import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { selectStatement } from "@/db/statement-per-db";
import { businesses, payments, sessions, type PaymentMethod, type SessionItem } from "@/db/schema";
import { getBranding, type Branding } from "@/lib/branding/get-branding";
import { quotePayment } from "@/lib/payments/quote-payment";
import { sessionExpired } from "@/lib/payments/get-payment";
import { activeMethods } from "@/lib/payments/active-methods";
import type { CheckoutStatus } from "./checkout-schemas";
import { checkoutState, type CheckoutState } from "./checkout-state";
import type { RecurringPlan } from "./recurring-price";
import { stripePublishableKey } from "./stripe-publishable-key";

const sessionIdPattern = /^cs_[0-9A-Za-z]{1,64}$/;

/** A method the customer can choose, with what they pay through it. */
export type CheckoutMethod = {
  id: string;
  provider: string;
  method: string;
  name: string;
  image: string;
  /** Redirect-based: the customer finishes on the provider's page. */
  redirect: boolean;
  /** Countries where the method works; null: everywhere. */
  countries: string[] | null;
  /** Cents the customer pays with this method, and the fee part shown when passed to them. */
  total: number;
  customerFee: number;
  /** Subscription sessions: cents of each renewal by this method (the total without one-time fees). */
  renewalAmount: number;
};

/** What the hosted page needs to render a session: nothing secret, nothing of other sessions. */
export type CheckoutPageData = {
  sessionId: string;
  merchant: string;
  mode: "sandbox" | "live";
  returnUrl: string | null;
  description: string | null;
  items: SessionItem[];
  amount: number;
  currency: string;
  /** A recurring plan: the page tells the customer how often it charges. Null: a one-time payment. */
  subscription: RecurringPlan | null;
  state: CheckoutState;
  /** The payment's own amount and method, once an attempt exists. */
  paidAmount: number | null;
  paidMethod: string | null;
  /** Why the last attempt failed, when the page opens on a failed attempt (e.g. back from 3-D Secure). */
  failureCode: string | null;
  methods: CheckoutMethod[];
  prefill: { name: string; email: string; phone: string };
  /** Live businesses: Stripe.js is loaded with this key; null in sandbox or when not connected. */
  stripePublishableKey: string | null;
  /** The business's logo and accent colour (Settings); nulls keep the default look. */
  branding: Branding;
};

/** The live state of a session, for the page's polling endpoint (schema: ./checkout-schemas.ts). */
export type { CheckoutStatus };

/** Only http(s) addresses become links (never `javascript:` and the like). */
export function safeReturnUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}

async function loadSession(db: Db, sessionId: string) {
  if (!sessionIdPattern.test(sessionId)) return null;
  const [row] = await sessionRow(db, { sessionId });
  return row ?? null;
}

// Built once: the page's polling and every payment read it.
const sessionRow = selectStatement("kassa_checkout_session", (db) =>
  db
    .select({ session: sessions, business: businesses, payment: payments })
    .from(sessions)
    .innerJoin(businesses, eq(businesses.id, sessions.businessId))
    .leftJoin(payments, eq(payments.sessionId, sessions.id))
    .where(eq(sessions.id, sql.placeholder("sessionId")))
    .limit(1),
);

/** The session's current state as the customer sees it; null when there is no such session. */
export async function getCheckoutStatus(db: Db, sessionId: string): Promise<CheckoutStatus | null> {
  const row = await loadSession(db, sessionId);
  if (!row) return null;
  return {
    session_id: row.session.id,
    state: checkoutState(row.payment?.status ?? null, sessionExpired(row.session, row.business)),
    status: row.payment?.status ?? null,
    amount: row.payment?.amount ?? row.session.amount,
    currency: row.session.currency,
    payment_method: row.payment?.paymentMethod ?? null,
    failure_code: row.payment?.status === "failed" ? (row.payment.failureCode ?? null) : null,
  };
}

/** The business a session belongs to; null when there is no such session. */
export async function checkoutBusinessId(db: Db, sessionId: string): Promise<string | null> {
  return (await loadSession(db, sessionId))?.session.businessId ?? null;
}

/**
 * Methods offered on the page: the business's active ones, only the forced one when the session
 * names it, only those supporting subscriptions for a subscription session, and for a live
 * business Stripe's only when Stripe.js can be loaded with a publishable key.
 */
export function offeredMethods(
  methods: PaymentMethod[],
  session: { paymentMethodId: string | null; subscription: boolean },
  options: { stripeUsable: boolean },
): PaymentMethod[] {
  return methods.filter(
    (m) =>
      (!session.paymentMethodId || m.id === session.paymentMethodId) &&
      (!session.subscription || m.supportsSubscriptions) &&
      (m.provider !== "stripe" || options.stripeUsable),
  );
}

export async function getCheckoutPage(db: Db, sessionId: string): Promise<CheckoutPageData | null> {
  const row = await loadSession(db, sessionId);
  if (!row) return null;
  const { session, business, payment } = row;
  const publishableKey = business.mode === "live" ? await stripePublishableKey(db, business.id) : null;
  const methods = offeredMethods(
    await activeMethods(db, business.id),
    { paymentMethodId: session.paymentMethodId, subscription: session.subscriptionInterval !== null },
    { stripeUsable: business.mode === "sandbox" || publishableKey !== null },
  );
  const prefill = session.customerPrefill ?? {};
  return {
    sessionId: session.id,
    merchant: business.name,
    mode: business.mode,
    returnUrl: safeReturnUrl(business.returnUrl),
    branding: await getBranding(db, business.id),
    description: session.description,
    items: session.items,
    amount: session.amount,
    currency: session.currency,
    subscription: session.subscriptionInterval
      ? { interval: session.subscriptionInterval, intervalCount: session.subscriptionIntervalCount ?? 1 }
      : null,
    state: checkoutState(payment?.status ?? null, sessionExpired(session, business)),
    paidAmount: payment?.amount ?? null,
    paidMethod: payment?.paymentMethod ?? null,
    failureCode: payment?.status === "failed" ? (payment.failureCode ?? null) : null,
    methods: methods.map((m) => {
      // Exactly what paySession will charge (the same quote); renewals charge it without the
      // one-time screening fee (startSubscription's unit_amount).
      const quote = quotePayment(business, m, session);
      const total = quote.amount;
      return {
        id: m.id,
        provider: m.provider,
        method: m.method,
        name: m.name,
        image: m.image,
        redirect: m.redirect,
        countries: m.countries && m.countries.length ? m.countries : null,
        total,
        customerFee: total - session.amount,
        renewalAmount: total - quote.screeningFee,
      };
    }),
    prefill: {
      name: prefill.name ?? "",
      email: prefill.email ?? session.customerEmail ?? "",
      phone: prefill.phone ?? "",
    },
    stripePublishableKey: publishableKey,
  };
}
