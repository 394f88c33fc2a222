import type Stripe from "stripe";
import { invalidRequest } from "../errors";
import { emit, snapshot } from "../events";
import { type Ctx, timeForCustomer } from "../state";
import { createBalanceTransaction, processingFee } from "./balance-transactions";
import { type ConfirmResult, confirmIntent } from "./confirm-intent";
import { customerId, paymentMethodId, requireIntentStatus } from "./intent-fields";

/** The end of a 3D Secure challenge: success charges the card, failure asks for another method. */
export function completeAuthentication(
  ctx: Ctx,
  intent: Stripe.PaymentIntent,
  succeed: boolean,
): ConfirmResult {
  if (intent.status !== "requires_action") {
    throw invalidRequest(
      `PaymentIntent ${intent.id} is not waiting for authentication (status ${intent.status}).`,
    );
  }
  if (succeed) return confirmIntent(ctx, intent, { offSession: false, authenticated: true });
  const created = timeForCustomer(ctx, customerId(intent));
  const pmId = paymentMethodId(intent);
  const paymentMethod = pmId ? ctx.account.store.get("payment_method", pmId) : undefined;
  intent.status = "requires_payment_method";
  intent.next_action = null;
  intent.payment_method = null;
  intent.last_payment_error = {
    code: "payment_intent_authentication_failure",
    doc_url: "https://stripe.com/docs/error-codes/payment-intent-authentication-failure",
    message:
      "The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.",
    ...(paymentMethod ? { payment_method: snapshot(paymentMethod) } : {}),
    type: "invalid_request_error",
  };
  emit(ctx, "payment_intent.payment_failed", intent, { created });
  return {
    outcome: "failed",
    error: invalidRequest(intent.last_payment_error.message ?? "", {
      code: "payment_intent_authentication_failure",
    }),
  };
}

export function captureIntent(ctx: Ctx, intent: Stripe.PaymentIntent, amountToCapture?: number): void {
  requireIntentStatus(intent, ["requires_capture"], ["capture", "captured"]);
  const amount = amountToCapture ?? intent.amount_capturable;
  if (amount > intent.amount_capturable || amount < 1) {
    throw invalidRequest(
      `The amount to capture (${amount}) must be less than or equal to the amount capturable (${intent.amount_capturable}).`,
      { param: "amount_to_capture" },
    );
  }
  const chargeId = typeof intent.latest_charge === "string" ? intent.latest_charge : intent.latest_charge?.id;
  const charge = chargeId ? ctx.account.store.get("charge", chargeId) : undefined;
  if (!charge) throw invalidRequest("This PaymentIntent has no charge to capture.");
  const created = timeForCustomer(ctx, customerId(intent));
  const before = snapshot(charge);
  charge.captured = true;
  charge.amount_captured = amount;
  charge.amount_refunded = intent.amount - amount;
  charge.balance_transaction = createBalanceTransaction(ctx, {
    amount,
    fee: processingFee(amount),
    currency: charge.currency,
    source: charge.id,
    type: "charge",
    created,
    description: charge.description,
  }).id;
  intent.status = "succeeded";
  intent.amount_capturable = 0;
  intent.amount_received = amount;
  emit(ctx, "charge.captured", charge, { created, before });
  emit(ctx, "payment_intent.succeeded", intent, { created });
}

export function cancelIntent(
  ctx: Ctx,
  intent: Stripe.PaymentIntent,
  reason: Stripe.PaymentIntent.CancellationReason | null,
): void {
  requireIntentStatus(
    intent,
    ["requires_payment_method", "requires_capture", "requires_confirmation", "requires_action", "processing"],
    ["cancel", "canceled"],
  );
  const created = timeForCustomer(ctx, customerId(intent));
  if (intent.status === "requires_capture") {
    const chargeId = typeof intent.latest_charge === "string" ? intent.latest_charge : null;
    const charge = chargeId ? ctx.account.store.get("charge", chargeId) : undefined;
    if (charge) {
      const before = snapshot(charge);
      charge.amount_refunded = charge.amount;
      charge.refunded = true;
      emit(ctx, "charge.refunded", charge, { created, before });
    }
  }
  intent.status = "canceled";
  intent.canceled_at = created;
  intent.cancellation_reason = reason;
  intent.amount_capturable = 0;
  intent.next_action = null;
  emit(ctx, "payment_intent.canceled", intent, { created });
}
