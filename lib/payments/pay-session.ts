import ipaddr from "ipaddr.js";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import {
  paymentAttempts,
  payments,
  type Business,
  type CustomerDetails,
  type PaymentAttempt,
  type PaymentMethod,
  type Session,
} from "@/db/schema";
import { checkoutUrl, baseUrl } from "@/lib/env";
import {
  IpMismatchError,
  PaymentMethodNotFoundError,
  ProviderError,
  SessionNotPayableError,
  ValidationError,
} from "@/lib/errors";
import { screenPayment } from "@/lib/fraud/screen-payment";
import { countryOfIp } from "@/lib/geo/country-of-ip";
import { isSafeText, parseOrThrow, safeText } from "@/lib/http/validation";
import { newId } from "@/lib/ids";
import { ensureInstanceHeartbeat, instanceId } from "@/lib/instances/instance-heartbeat";
import { log } from "@/lib/log";
import { cardProviderFor, redirectProviderFor } from "@/lib/providers/provider-for";
import { ensureSandboxTestClock } from "@/lib/providers/stripe/ensure-sandbox-test-clock";
import type { CardInstrument } from "@/lib/providers/types";
import { activeMethods } from "./active-methods";
import { parseDbTime, toDbTime } from "@/lib/time";
import { getPayment, sessionExpired, type PaymentView } from "./get-payment";
import { cardPaymentDetails, lockAttempt, lockSession, rememberProviderObject } from "./payment-records";
import { quotePayment } from "./quote-payment";
import { chargeSettlement } from "./refresh-payment";
import { sandboxChallengeUrl } from "./sandbox-challenge";
import { settleAttempt, type SettleResult } from "./settle-attempt";
import { businessNow } from "@/lib/clock";

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
};

export type PayResult = {
  /** The interface's Payment object after the attempt. */
  payment: PaymentView;
  next?: { type: "redirect"; url: string } | { type: "authenticate"; challengeUrl: string };
  /** Why this attempt failed, when it did (the payment reads `failed` or `declined`). */
  failure?: { code: string; message: string };
};

/** An attempt left `started` this long (its process died mid-call) no longer blocks the session. */
export const staleAttemptMs = 10 * 60_000;

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

const payInputSchema = z.object({
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
type ParsedInput = z.infer<typeof payInputSchema>;

function normalizedIp(ip: string | null | undefined): string | null {
  if (!ip) return null;
  try {
    return ipaddr.process(ip.trim()).toNormalizedString();
  } catch {
    return null;
  }
}

/** The session's prefill under what the payer typed. */
function billingOf(session: Session, details: ParsedInput["customerDetails"]): CustomerDetails {
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

function providerMetadata(session: Session, attemptId: string): Record<string, string> {
  return {
    kassa_business_id: session.businessId,
    kassa_session_id: session.id,
    kassa_attempt_id: attemptId,
    kassa_order_id: session.orderId.slice(0, 500),
  };
}

type Prepared =
  | { kind: "resume"; business: Business; next: NonNullable<PayResult["next"]> }
  | {
      kind: "attempt";
      attempt: PaymentAttempt;
      session: Session;
      business: Business;
      method: PaymentMethod;
      superseded: PaymentAttempt | null;
    };

/**
 * May a new attempt replace the one in flight? A 3-D Secure challenge the payer did not finish,
 * a redirect payment nothing was paid on yet, or an attempt whose process died long ago.
 */
function supersedable(current: PaymentAttempt, amountReceived: number): boolean {
  if (current.status === "requires_action") return true;
  if (current.status === "pending") return amountReceived === 0;
  if (current.status === "started")
    return parseDbTime(current.updatedAt).getTime() < Date.now() - staleAttemptMs;
  return false;
}

/** Under the session's lock: every check, then the payment row and a `started` attempt. */
async function prepare(tx: Db, sessionId: string, input: ParsedInput, ctx: PayContext): Promise<Prepared> {
  const { session, business, payment } = await lockSession(tx, sessionId);
  if (
    session.requiredIp &&
    ctx.via !== "session_start" &&
    normalizedIp(session.requiredIp) !== normalizedIp(ctx.ip)
  )
    throw new IpMismatchError();

  let superseded: PaymentAttempt | null = null;
  switch (payment?.status) {
    case "succeeded":
      throw new SessionNotPayableError("already_paid", "This session has already been paid");
    case "pending_review":
      throw new SessionNotPayableError("in_review", "The payment of this session is being reviewed");
    case "declined":
      throw new SessionNotPayableError("declined", "The payment of this session was declined");
    case "expired":
      throw new SessionNotPayableError("expired", "This session has expired");
    case "processing":
    case "pending": {
      const current = payment.attemptId ? await lockAttempt(tx, payment.attemptId) : null;
      // The same redirect method again: back to the provider's page (to pay, or pay the rest).
      if (
        current?.status === "pending" &&
        current.paymentMethodId === input.paymentMethodId &&
        current.nextUrl
      )
        return { kind: "resume", business, next: { type: "redirect", url: current.nextUrl } };
      if (!current || !supersedable(current, payment.amountReceived ?? 0))
        throw new SessionNotPayableError("processing", "A payment of this session is in progress");
      superseded = current;
      break;
    }
  }
  if (sessionExpired(session, business))
    throw new SessionNotPayableError("expired", "This session has expired");

  const method = (await activeMethods(tx, business.id)).find((m) => m.id === input.paymentMethodId);
  if (
    !method ||
    (session.paymentMethodId !== null && session.paymentMethodId !== method.id) ||
    (session.subscriptionInterval !== null && !method.supportsSubscriptions)
  )
    throw new PaymentMethodNotFoundError();
  if (!method.redirect) {
    if (business.mode === "live") {
      if (input.card)
        throw ValidationError.field(
          "card",
          "Card numbers are not accepted for live payments: use Stripe.js (stripePaymentMethodId)",
        );
      if (!input.stripePaymentMethodId)
        throw ValidationError.field("stripePaymentMethodId", "stripePaymentMethodId is required");
    } else if (!input.card && !input.stripePaymentMethodId)
      throw ValidationError.field("card", "card is required");
  }

  const { amount, fees, screeningFee: screening } = quotePayment(business, method, session);
  const ip = ctx.via === "session_start" ? (session.requiredIp ?? session.creatorIp) : ctx.ip;
  const country = countryOfIp(ip);
  const userAgent = ctx.userAgent ? ctx.userAgent.slice(0, 1000) : null;
  const billing = billingOf(session, input.customerDetails);

  const fresh = {
    status: "processing" as const,
    amount,
    fees: null,
    netAmount: null,
    paymentMethod: method.method,
    provider: method.provider,
    providerPaymentId: null,
    providerCustomerId: null,
    customerDetails: null,
    paymentDetails: null,
    ip,
    country,
    userAgent,
    amountReceived: null,
    screeningFee: screening,
    fraudDecision: null,
    fraudReasons: null,
    riskLevel: null,
    failureCode: null,
    failureMessage: null,
    completedAt: null,
  };
  const paymentId = payment?.id ?? newId("payment");
  const attemptId = newId("paymentAttempt");
  if (payment)
    await tx
      .update(payments)
      .set({ ...fresh, attemptId, updatedAt: sql`now()` })
      .where(eq(payments.id, payment.id));
  else
    await tx
      .insert(payments)
      .values({
        ...fresh,
        id: paymentId,
        sessionId: session.id,
        businessId: business.id,
        attemptId,
        createdAt: toDbTime(businessNow(business)),
      });
  if (superseded)
    await tx
      .update(paymentAttempts)
      .set({ status: "abandoned", completedAt: new Date().toISOString(), updatedAt: sql`now()` })
      .where(eq(paymentAttempts.id, superseded.id));
  const [attempt] = await tx
    .insert(paymentAttempts)
    .values({
      id: attemptId,
      sessionId: session.id,
      businessId: business.id,
      paymentId,
      paymentMethodId: method.id,
      provider: method.provider,
      method: method.method,
      via: ctx.via,
      amount,
      fees,
      netAmount: amount - fees,
      screeningFee: screening,
      email: billing.email ? billing.email.toLowerCase() : null,
      ip,
      country,
      userAgent,
      customerDetails: billing,
      // While this process lives, the reconciler leaves the attempt to it (decision 0025).
      instanceId: instanceId(),
    })
    .returning();
  return { kind: "attempt", attempt: attempt!, session, business, method, superseded };
}

async function result(
  db: Db,
  business: Business,
  sessionId: string,
  settled: SettleResult | null,
): Promise<PayResult> {
  const payment = await getPayment(db, business, sessionId);
  const attempt = settled?.attempt;
  if (attempt?.status === "requires_action" && attempt.nextUrl)
    return {
      payment,
      next: {
        type: "authenticate",
        // Sandbox: Kassa's own challenge page (the emulator's is on a loopback port).
        challengeUrl: business.mode === "sandbox" ? sandboxChallengeUrl(attempt.id) : attempt.nextUrl,
      },
    };
  if (attempt?.status === "pending" && attempt.nextUrl)
    return { payment, next: { type: "redirect", url: attempt.nextUrl } };
  if (attempt && (attempt.status === "failed" || attempt.status === "declined") && attempt.failureCode)
    return {
      payment,
      failure: { code: attempt.failureCode, message: attempt.failureMessage ?? "The payment failed" },
    };
  return { payment };
}

/** Marks an attempt that never reached the provider's charge as given up (the payment is left alone). */
async function abandon(db: Db, attemptId: string): Promise<void> {
  await db
    .update(paymentAttempts)
    .set({ status: "abandoned", completedAt: new Date().toISOString(), updatedAt: sql`now()` })
    .where(eq(paymentAttempts.id, attemptId));
}

async function payByCard(db: Db, prepared: Extract<Prepared, { kind: "attempt" }>, input: ParsedInput) {
  const { attempt, session, business, method, superseded } = prepared;
  const provider = await cardProviderFor(db, business, method.provider);
  if (superseded?.providerPaymentId && superseded.provider === method.provider) {
    // Give up the unfinished challenge first: if the payer completed it meanwhile, that charge is the payment.
    const previous = await provider.cancelCharge(superseded.providerPaymentId);
    if (previous.status === "succeeded") {
      await settleAttempt(db, superseded.id, chargeSettlement(previous));
      await abandon(db, attempt.id);
      return null;
    }
  }
  const instrument: CardInstrument = input.card
    ? { kind: "card", ...input.card }
    : { kind: "token", paymentMethodId: input.stripePaymentMethodId! };
  const prepared2 = await provider.prepareInstrument(instrument, attempt.customerDetails);
  if (!prepared2.ok)
    return settleAttempt(db, attempt.id, {
      kind: "failed",
      providerPaymentId: null,
      failure: prepared2.failure,
      blocked: false,
    });
  const card = prepared2.card;
  const verdict = await screenPayment(db, business, attempt.id, {
    amount: attempt.amount,
    cardFingerprint: card?.fingerprint ?? null,
    cardCountry: card?.country ?? null,
    ip: attempt.ip,
    ipCountry: attempt.country,
    email: attempt.email,
  });
  // Written before the charge: the inbound event may settle the attempt before the API answers.
  await db
    .update(paymentAttempts)
    .set({
      providerPaymentMethodId: prepared2.paymentMethodId,
      cardFingerprint: card?.fingerprint ?? null,
      paymentDetails: cardPaymentDetails(card),
      fraud: verdict,
      updatedAt: sql`now()`,
    })
    .where(eq(paymentAttempts.id, attempt.id));
  if (verdict.decision === "decline") return settleAttempt(db, attempt.id, { kind: "screened_out", verdict });

  const customerId = await provider.createCustomer({
    businessId: business.id,
    sessionId: session.id,
    attemptId: attempt.id,
    email: attempt.customerDetails?.email ?? null,
    name: attempt.customerDetails?.name ?? null,
    phone: attempt.customerDetails?.phone ?? null,
    customerRef: session.customer,
    // A sandbox plan's customer lives on the business's test clock: its clock then drives renewals.
    testClock:
      session.subscriptionInterval !== null && business.mode === "sandbox"
        ? await ensureSandboxTestClock(db, business)
        : null,
  });
  await rememberProviderObject(db, {
    provider: method.provider,
    objectId: customerId,
    businessId: business.id,
    kind: "customer",
    sessionId: session.id,
    attemptId: attempt.id,
  });
  await db
    .update(paymentAttempts)
    .set({ providerCustomerId: customerId, updatedAt: sql`now()` })
    .where(eq(paymentAttempts.id, attempt.id));
  const outcome = await provider.charge({
    attemptId: attempt.id,
    sessionId: session.id,
    businessId: business.id,
    amount: attempt.amount,
    currency: session.currency,
    customerId,
    paymentMethodId: prepared2.paymentMethodId,
    description: session.description,
    saveForFutureUse: session.subscriptionInterval !== null,
    returnUrl: `${baseUrl()}/payment/stripe/return?session_id=${encodeURIComponent(session.id)}`,
    metadata: providerMetadata(session, attempt.id),
    receiptEmail: null,
  });
  return settleAttempt(db, attempt.id, chargeSettlement(outcome));
}

async function payByRedirect(db: Db, prepared: Extract<Prepared, { kind: "attempt" }>) {
  const { attempt, session, business, method } = prepared;
  const provider = await redirectProviderFor(db, business, method.provider);
  const verdict = await screenPayment(db, business, attempt.id, {
    amount: attempt.amount,
    cardFingerprint: null,
    cardCountry: null,
    ip: attempt.ip,
    ipCountry: attempt.country,
    email: attempt.email,
  });
  await db
    .update(paymentAttempts)
    .set({ fraud: verdict, paymentDetails: { type: method.method }, updatedAt: sql`now()` })
    .where(eq(paymentAttempts.id, attempt.id));
  if (verdict.decision === "decline") return settleAttempt(db, attempt.id, { kind: "screened_out", verdict });
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(session.metadata))
    if (value !== null) metadata[key] = String(value);
  const started = await provider.startPayment({
    attemptId: attempt.id,
    sessionId: session.id,
    businessId: business.id,
    method: method.method,
    amount: attempt.amount,
    currency: session.currency,
    description: session.description,
    returnUrl: `${checkoutUrl()}/${session.id}`,
    metadata: { ...metadata, ...providerMetadata(session, attempt.id) },
  });
  return settleAttempt(db, attempt.id, {
    kind: "awaiting_payer",
    providerPaymentId: started.providerPaymentId,
    amountReceived: 0,
    redirectUrl: started.redirectUrl,
  });
}

/**
 * Pays a session: the one code path of the hosted page, the sandbox helper and POST /session's
 * redirect start (decision 0008).
 *
 * 1. Under the session's lock (SELECT … FOR UPDATE): IP check, payability, the method (the forced
 *    one only, active for the business), fees; the payment row goes `processing` and a `started`
 *    attempt is written, so a concurrent call finds the session busy and nothing is charged twice.
 * 2. Outside any transaction: the provider calls, with fraud screening between card and charge.
 * 3. One transaction records the outcome: payment, ledger credit, refunds, events (settleAttempt).
 */
export async function paySession(
  db: Db,
  sessionId: string,
  input: PayInput,
  ctx: PayContext,
): Promise<PayResult> {
  const parsed = parseOrThrow(payInputSchema, input);
  await ensureInstanceHeartbeat(db);
  const prepared = await db.transaction((tx) => prepare(tx, sessionId, parsed, ctx));
  if (prepared.kind === "resume") {
    return { payment: await getPayment(db, prepared.business, sessionId), next: prepared.next };
  }
  const { attempt, business, method } = prepared;
  let settled: SettleResult | null;
  try {
    settled = method.redirect ? await payByRedirect(db, prepared) : await payByCard(db, prepared, parsed);
  } catch (error) {
    // The provider did not answer, or refused the set-up: the attempt fails (a charge that went
    // through after all is recovered from the provider's event and never taken twice).
    const failure =
      error instanceof ProviderError
        ? { code: error.errorType, message: error.message }
        : { code: "internal_error", message: "The payment could not be completed" };
    if (!(error instanceof ProviderError))
      log.error("payment attempt failed", { attemptId: attempt.id, error });
    settled = await settleAttempt(db, attempt.id, {
      kind: "failed",
      providerPaymentId: null,
      failure,
      blocked: false,
    });
    if (!(error instanceof ProviderError)) throw error;
  }
  return result(db, business, sessionId, settled);
}
