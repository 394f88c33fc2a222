import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, paymentAttempts, payments, type ProviderEvent } from "@/db/schema";
import { stripeFor } from "@/lib/providers/provider-for";
import { readStripeDispute } from "@/lib/providers/stripe/stripe-disputes";
import { applyDisputeState } from "./apply-dispute-state";

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
const asString = (value: unknown): string | null =>
  typeof value === "string" && value.length <= 255 ? value : null;

/** A dispute event that came before its payment was recorded: its job tries again in a moment. */
export class DisputeBeforePaymentError extends Error {
  override name = "DisputeBeforePaymentError";
  readonly retryInMs = 2_000;
}

export const isDisputeEvent = (type: string) => type.startsWith("charge.dispute.");

/**
 * The session a provider payment id belongs to, within the business: by its attempt (recorded
 * when the PaymentIntent was created, so a dispute event that outruns the payment's settlement
 * still finds it), else by the payment (a renewal's invoice PaymentIntent).
 */
async function paymentOf(db: Db, businessId: string, provider: string, providerPaymentId: string) {
  const [attempt] = await db
    .select({ sessionId: paymentAttempts.sessionId })
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.businessId, businessId),
        eq(paymentAttempts.provider, provider),
        eq(paymentAttempts.providerPaymentId, providerPaymentId),
      ),
    )
    .limit(1);
  if (attempt) return attempt;
  const [row] = await db
    .select({ sessionId: payments.sessionId })
    .from(payments)
    .where(
      and(
        eq(payments.businessId, businessId),
        eq(payments.provider, provider),
        eq(payments.providerPaymentId, providerPaymentId),
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * One `charge.dispute.*` event from Stripe. Like subscription events, it only says what to look
 * at: the dispute is re-read from Stripe and its current state applied (applyDisputeState), so
 * duplicates and any order converge on Stripe's state and move the ledger once.
 */
export async function handleDisputeEvent(
  db: Db,
  event: ProviderEvent,
): Promise<{ handled: boolean; note: string }> {
  const object = asObject(asObject(event.payload.data)?.object);
  const disputeId = asString(object?.id);
  const intentId = asString(object?.payment_intent);
  if (!disputeId || !intentId) return { handled: false, note: "a dispute without a payment intent" };
  const payment = await paymentOf(db, event.businessId, event.provider, intentId);
  // Stripe disputes a test card's charge at once: its events can outrun the payment's recording.
  // The job retries (with backoff) until the payment is there.
  if (!payment)
    throw new DisputeBeforePaymentError(`dispute ${disputeId}: its payment ${intentId} is not recorded yet`);
  const [business] = await db.select().from(businesses).where(eq(businesses.id, event.businessId)).limit(1);
  if (!business) return { handled: false, note: "unknown business" };
  const state = await readStripeDispute(await stripeFor(db, business), disputeId);
  if (state.paymentIntentId !== intentId)
    return { handled: false, note: "the dispute is of another payment" };
  const dispute = await applyDisputeState(
    db,
    { businessId: event.businessId, sessionId: payment.sessionId, provider: event.provider },
    state,
  );
  return { handled: true, note: `dispute ${dispute.id}: ${dispute.status}` };
}
