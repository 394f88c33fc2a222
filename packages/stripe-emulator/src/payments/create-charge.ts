import type Stripe from "stripe";
import { snapshot } from "../events";
import { newObjectId, randomBase62 } from "../ids";
import { type Ctx, timeForCustomer } from "../state";
import { createBalanceTransaction, processingFee } from "./balance-transactions";
import { type Decision, outcomeFor } from "./card-decision";
import { customerId } from "./intent-fields";

export function createCharge(
  ctx: Ctx,
  intent: Stripe.PaymentIntent,
  paymentMethod: Stripe.PaymentMethod,
  decision: Exclude<Decision, { kind: "authenticate" }>,
): Stripe.Charge {
  const created = timeForCustomer(ctx, customerId(intent));
  const succeeded = decision.kind === "approve";
  const captured = succeeded && intent.capture_method !== "manual";
  const charge: Stripe.Charge = {
    id: newObjectId("ch"),
    object: "charge",
    amount: intent.amount,
    amount_captured: captured ? intent.amount : 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: snapshot(paymentMethod.billing_details),
    calculated_statement_descriptor: "KASSA EMULATOR",
    captured,
    created,
    currency: intent.currency,
    customer: customerId(intent),
    description: intent.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: succeeded ? null : decision.code,
    failure_message: succeeded ? null : decision.message,
    fraud_details: {},
    livemode: false,
    metadata: { ...intent.metadata },
    on_behalf_of: null,
    outcome: outcomeFor(decision),
    paid: succeeded,
    payment_intent: intent.id,
    payment_method: paymentMethod.id,
    payment_method_details: {
      card: cardDetails(intent, paymentMethod.card, decision),
      type: "card",
    },
    receipt_email: intent.receipt_email,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: succeeded ? "succeeded" : "failed",
    transfer_data: null,
    transfer_group: null,
  };
  ctx.account.store.insert("charge", charge);
  if (captured) {
    charge.balance_transaction = createBalanceTransaction(ctx, {
      amount: charge.amount,
      fee: processingFee(charge.amount),
      currency: charge.currency,
      source: charge.id,
      type: "charge",
      created,
      description: charge.description,
    }).id;
  }
  return charge;
}

/** The card as the charge saw it: authorization, network ids, 3D Secure. */
function cardDetails(
  intent: Stripe.PaymentIntent,
  card: Stripe.PaymentMethod.Card | undefined,
  decision: Exclude<Decision, { kind: "authenticate" }>,
): Stripe.Charge.PaymentMethodDetails.Card {
  const succeeded = decision.kind === "approve";
  return {
    amount_authorized: succeeded ? intent.amount : null,
    authorization_code: succeeded ? randomBase62(6).toUpperCase() : null,
    brand: card?.brand ?? null,
    checks: card?.checks ?? null,
    country: card?.country ?? null,
    electronic_commerce_indicator: null,
    exp_month: card?.exp_month ?? 0,
    exp_year: card?.exp_year ?? 0,
    extended_authorization: { status: "disabled" },
    fingerprint: card?.fingerprint ?? null,
    funding: card?.funding ?? null,
    incremental_authorization: { status: "unavailable" },
    installments: null,
    last4: card?.last4 ?? null,
    mandate: null,
    multicapture: { status: "unavailable" },
    network: card?.brand ?? null,
    network_token: { used: false },
    network_transaction_id: succeeded ? randomBase62(15) : null,
    overcapture: { maximum_amount_capturable: intent.amount, status: "unavailable" },
    regulated_status: "unregulated",
    three_d_secure:
      decision.kind === "approve" && decision.threeDSecure
        ? {
            authentication_flow: "challenge",
            electronic_commerce_indicator: "05",
            exemption_indicator: null,
            result: "authenticated",
            result_reason: null,
            transaction_id: crypto.randomUUID(),
            version: "2.2.0",
          }
        : null,
    transaction_link_id: null,
    wallet: null,
  };
}
