import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { paymentAttempts } from "@/db/schema";
import { baseUrl, checkoutUrl } from "@/lib/env";
import { screenPayment } from "@/lib/fraud/screen-payment";
import { cardProviderFor, redirectProviderFor } from "@/lib/providers/provider-for";
import { ensureSandboxTestClock } from "@/lib/providers/stripe/ensure-sandbox-test-clock";
import type { CardInstrument, CardProvider } from "@/lib/providers/types";
import { providerMetadata, type ParsedInput } from "./pay-input";
import { cardPaymentDetails, rememberProviderObject } from "./payment-records";
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

/** A customer at the provider for this attempt, remembered (to attribute events) and kept on the attempt. */
async function createProviderCustomer(
  db: Db,
  provider: CardProvider,
  prepared: AttemptPrepared,
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
      await settleAttempt(db, superseded.id, chargeSettlement(previous));
      await abandon(db, attempt.id);
      return null;
    }
  }
  const instrument: CardInstrument = input.card
    ? { kind: "card", ...input.card }
    : { kind: "token", paymentMethodId: input.stripePaymentMethodId! };
  const ready = await provider.prepareInstrument(instrument, attempt.customerDetails);
  if (!ready.ok)
    return settleAttempt(db, attempt.id, {
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
  // Written before the charge: the inbound event may settle the attempt before the API answers.
  await db
    .update(paymentAttempts)
    .set({
      providerPaymentMethodId: ready.paymentMethodId,
      cardFingerprint: card?.fingerprint ?? null,
      paymentDetails: cardPaymentDetails(card),
      fraud: verdict,
      updatedAt: sql`now()`,
    })
    .where(eq(paymentAttempts.id, attempt.id));
  if (verdict.decision === "decline") return settleAttempt(db, attempt.id, { kind: "screened_out", verdict });
  const customerId = await createProviderCustomer(db, provider, prepared);
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
  return settleAttempt(db, attempt.id, chargeSettlement(outcome));
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
