import type { Db } from "@/db/client";
import { insertStatements } from "@/db/row-statements";
import {
  paymentAttempts,
  payments,
  type Business,
  type PaymentAttempt,
  type PaymentMethod,
  type Session,
} from "@/db/schema";
import { businessNow } from "@/lib/clock";
import {
  IpMismatchError,
  PaymentMethodNotFoundError,
  SessionNotPayableError,
  ValidationError,
} from "@/lib/errors";
import { countryOfIp } from "@/lib/geo/country-of-ip";
import { newId } from "@/lib/ids";
import { instanceId } from "@/lib/instances/instance-heartbeat";
import { parseDbTime, toDbTime } from "@/lib/time";
import { activeMethods } from "./active-methods";
import { sessionExpired } from "./get-payment";
import { billingOf, normalizedIp, type ParsedInput, type PayContext, type PayResult } from "./pay-input";
import {
  lockAttempt,
  lockSession,
  updateAttemptRow,
  updatePaymentRow,
  type LockedSession,
} from "./payment-records";
import { quotePayment } from "./quote-payment";

// Paying a session, phase 1: under the session's lock, every check, then the payment row and a
// `started` attempt (so a concurrent call finds the session busy and nothing is charged twice).

/** An attempt left `started` this long (its process died mid-call) no longer blocks the session. */
export const staleAttemptMs = 10 * 60_000;

export type Prepared =
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

/**
 * Can the session take a new attempt? Throws SessionNotPayableError when it is paid, held,
 * declined, expired or busy. Answers the redirect to resume (the same redirect method again), or
 * the attempt in flight that the new one replaces.
 */
async function checkPayable(
  tx: Db,
  { session, business, payment }: LockedSession,
  input: ParsedInput,
): Promise<{ resume: NonNullable<PayResult["next"]> } | { superseded: PaymentAttempt | null }> {
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
        return { resume: { type: "redirect", url: current.nextUrl } };
      if (!current || !supersedable(current, payment.amountReceived ?? 0))
        throw new SessionNotPayableError("processing", "A payment of this session is in progress");
      superseded = current;
      break;
    }
  }
  if (sessionExpired(session, business))
    throw new SessionNotPayableError("expired", "This session has expired");
  return { superseded };
}

/** The method asked for: active for the business, the session's forced one if any, with what it needs. */
async function chooseMethod(
  tx: Db,
  session: Session,
  business: Business,
  input: ParsedInput,
): Promise<PaymentMethod> {
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
  return method;
}

/** The payment row reset to `processing` for a new attempt (or created), the old attempt abandoned. */
async function writePayment(
  tx: Db,
  locked: LockedSession,
  fresh: Omit<typeof payments.$inferInsert, "id" | "sessionId" | "businessId">,
  ids: { paymentId: string; attemptId: string },
  superseded: PaymentAttempt | null,
): Promise<void> {
  const { session, business, payment } = locked;
  if (payment) await updatePaymentRow(tx, payment.id, { ...fresh, attemptId: ids.attemptId });
  else
    await insertPayment(tx, {
      ...fresh,
      id: ids.paymentId,
      sessionId: session.id,
      businessId: business.id,
      attemptId: ids.attemptId,
      createdAt: toDbTime(businessNow(business)),
    });
  if (superseded)
    await updateAttemptRow(tx, superseded.id, { status: "abandoned", completedAt: new Date().toISOString() });
}

// Built once per set of columns (drizzle's building of these wide rows is most of their cost).
const insertPayment = insertStatements(payments, "kassa_insert_payment");
const insertAttempt = insertStatements(paymentAttempts, "kassa_insert_attempt");

/** Under the session's lock: every check, then the payment row and a `started` attempt. */
export async function prepareAttempt(
  tx: Db,
  sessionId: string,
  input: ParsedInput,
  ctx: PayContext,
): Promise<Prepared> {
  const locked = await lockSession(tx, sessionId);
  const { session, business, payment } = locked;
  if (
    session.requiredIp &&
    ctx.via !== "session_start" &&
    normalizedIp(session.requiredIp) !== normalizedIp(ctx.ip)
  )
    throw new IpMismatchError();
  const payable = await checkPayable(tx, locked, input);
  if ("resume" in payable) return { kind: "resume", business, next: payable.resume };
  const method = await chooseMethod(tx, session, business, input);

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
    locale: ctx.locale ?? null,
  };
  const ids = { paymentId: payment?.id ?? newId("payment"), attemptId: newId("paymentAttempt") };
  await writePayment(tx, locked, fresh, ids, payable.superseded);
  const [attempt] = await insertAttempt(tx, {
    id: ids.attemptId,
    sessionId: session.id,
    businessId: business.id,
    paymentId: ids.paymentId,
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
  });
  return { kind: "attempt", attempt: attempt!, session, business, method, superseded: payable.superseded };
}
