import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rawStatement } from "@/db/statement-per-db";
import { paymentAttempts, type PaymentAttempt } from "@/db/schema";
import { baseUrl, checkoutUrl } from "@/lib/env";
import { screenPayment } from "@/lib/fraud/screen-payment";
import { cardProviderFor, redirectProviderFor } from "@/lib/providers/provider-for";
import { ensureSandboxTestClock } from "@/lib/providers/stripe/ensure-sandbox-test-clock";
import type { CardInstrument, CardProvider } from "@/lib/providers/types";
import { providerMetadata, type ParsedInput } from "./pay-input";
import { cardPaymentDetails } from "./payment-records";
import type { Prepared } from "./prepare-attempt";
import { chargeSettlement } from "./refresh-payment";
import { settleAttempt, type SettleResult } from "./settle-attempt";

// Paying a session, phase 2: the provider calls, outside any transaction, with fraud screening
// between card and charge. Each ends in settleAttempt (phase 3).

type AttemptPrepared = Extract<Prepared, { kind: "attempt" }>;

/** Marks an attempt that never reached the provider's charge as given up (the payment is left alone). */
async function abandon(db: Db, attemptId: string): Promise<void> {
  await db
    .update(paymentAttempts)
    .set({ status: "abandoned", completedAt: new Date().toISOString(), updatedAt: sql`now()` })
    .where(eq(paymentAttempts.id, attemptId));
}

/** What screening and the card's set-up learned, written on the attempt before the charge. */
type Screened = Pick<
  PaymentAttempt,
  "providerPaymentMethodId" | "cardFingerprint" | "paymentDetails" | "fraud"
>;

const p = (name: string) => sql.placeholder(name);

/**
 * Before the charge, in one statement: the provider's customer remembered (to attribute its
 * events to the business) and kept on the attempt, with screening's record.
 */
const recordCustomer = rawStatement(
  "kassa_attempt_customer",
  sql`with remembered as (
      insert into provider_objects (provider, object_id, business_id, kind, session_id, attempt_id)
      values (${p("provider")}, ${p("customerId")}, ${p("businessId")}, 'customer', ${p("sessionId")}, ${p("attemptId")})
      on conflict do nothing
    )
    update payment_attempts
    set provider_customer_id = ${p("customerId")}, provider_payment_method_id = ${p("providerPaymentMethodId")},
      card_fingerprint = ${p("cardFingerprint")}, payment_details = ${p("paymentDetails")}::jsonb,
      fraud = ${p("fraud")}::jsonb, updated_at = now()
    where id = ${p("attemptId")}`,
);

const screenedValues = (attemptId: string, screened: Screened) => ({
  attemptId,
  providerPaymentMethodId: screened.providerPaymentMethodId,
  cardFingerprint: screened.cardFingerprint,
  paymentDetails: JSON.stringify(screened.paymentDetails),
  fraud: JSON.stringify(screened.fraud),
});

/**
 * A customer at the provider for this attempt, remembered (to attribute events) and kept on the
 * attempt with screening's record (written before the charge: the inbound event may settle the
 * attempt before the API answers).
 */
async function createProviderCustomer(
  db: Db,
  provider: CardProvider,
  prepared: AttemptPrepared,
  screened: Screened,
): Promise<string> {
  const { attempt, session, business, method } = prepared;
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
  await recordCustomer(db, {
    ...screenedValues(attempt.id, screened),
    provider: method.provider,
    customerId,
    businessId: business.id,
    sessionId: session.id,
  });
  return customerId;
}

export async function payByCard(
  db: Db,
  prepared: AttemptPrepared,
  input: ParsedInput,
): Promise<SettleResult | null> {
  const { attempt, session, business, method, superseded } = prepared;
  const provider = await cardProviderFor(db, business, method.provider);
  if (superseded?.providerPaymentId && superseded.provider === method.provider) {
    // Give up the unfinished challenge first: if the payer completed it meanwhile, that charge is the payment.
    const previous = await provider.cancelCharge(superseded.providerPaymentId);
    if (previous.status === "succeeded") {
      await settleAttempt(db, superseded, chargeSettlement(previous));
      await abandon(db, attempt.id);
      return null;
    }
  }
  const instrument: CardInstrument = input.card
    ? { kind: "card", ...input.card }
    : { kind: "token", paymentMethodId: input.stripePaymentMethodId! };
  const ready = await provider.prepareInstrument(instrument, attempt.customerDetails);
  if (!ready.ok)
    return settleAttempt(db, attempt, {
      kind: "failed",
      providerPaymentId: null,
      failure: ready.failure,
      blocked: false,
    });
  const card = ready.card;
  const verdict = await screenPayment(db, business, attempt.id, {
    amount: attempt.amount,
    cardFingerprint: card?.fingerprint ?? null,
    cardCountry: card?.country ?? null,
    ip: attempt.ip,
    ipCountry: attempt.country,
    email: attempt.email,
  });
  const screened: Screened = {
    providerPaymentMethodId: ready.paymentMethodId,
    cardFingerprint: card?.fingerprint ?? null,
    paymentDetails: cardPaymentDetails(card),
    fraud: verdict,
  };
  if (verdict.decision === "decline") {
    await db
      .update(paymentAttempts)
      .set({ ...screened, updatedAt: sql`now()` })
      .where(eq(paymentAttempts.id, attempt.id));
    return settleAttempt(db, attempt, { kind: "screened_out", verdict });
  }
  const customerId = await createProviderCustomer(db, provider, prepared, screened);
  const outcome = await provider.charge({
    attemptId: attempt.id,
    sessionId: session.id,
    businessId: business.id,
    amount: attempt.amount,
    currency: session.currency,
    customerId,
    paymentMethodId: ready.paymentMethodId,
    description: session.description,
    saveForFutureUse: session.subscriptionInterval !== null,
    returnUrl: `${baseUrl()}/payment/stripe/return?session_id=${encodeURIComponent(session.id)}`,
    metadata: providerMetadata(session, attempt.id),
    receiptEmail: null,
  });
  return settleAttempt(db, attempt, chargeSettlement(outcome));
}

export async function payByRedirect(db: Db, prepared: AttemptPrepared): Promise<SettleResult> {
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
  if (verdict.decision === "decline") return settleAttempt(db, attempt, { kind: "screened_out", verdict });
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
  return settleAttempt(db, attempt, {
    kind: "awaiting_payer",
    providerPaymentId: started.providerPaymentId,
    amountReceived: 0,
    redirectUrl: started.redirectUrl,
  });
}
