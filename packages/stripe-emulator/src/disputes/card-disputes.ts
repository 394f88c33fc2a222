import type Stripe from "stripe";
import type { DisputeSpec } from "../cards";
import { invalidRequest } from "../errors";
import { emit } from "../events";
import { newObjectId } from "../ids";
import { requireObject } from "../lookup";
import { type Ctx, idOf, timeForCustomer } from "../state";
import { openDispute } from "./open-dispute";

/**
 * After a card charge succeeded and was captured: a dispute test card has the charge disputed
 * (docs.stripe.com/testing#disputes), the early fraud warning card gets a warning from the issuer.
 */
export function afterCapturedCharge(ctx: Ctx, charge: Stripe.Charge): void {
  const pm = idOf(charge.payment_method as string | null);
  const behavior = pm ? ctx.account.cards.get(pm)?.behavior : undefined;
  if (behavior?.kind !== "succeed") return;
  if (behavior.earlyFraudWarning) createEarlyFraudWarning(ctx, charge);
  if (behavior.dispute) openDispute(ctx, charge, behavior.dispute);
}

function createEarlyFraudWarning(ctx: Ctx, charge: Stripe.Charge): void {
  const created = timeForCustomer(ctx, idOf(charge.customer as string | null));
  const warning: Stripe.Radar.EarlyFraudWarning = {
    id: newObjectId("issfr"),
    object: "radar.early_fraud_warning",
    actionable: true,
    charge: charge.id,
    created,
    fraud_type: "made_with_stolen_card",
    livemode: false,
    payment_intent: idOf(charge.payment_intent as string | null) ?? undefined,
  };
  ctx.account.store.insert("radar.early_fraud_warning", warning);
  emit(ctx, "radar.early_fraud_warning.created", warning, { created });
}

export interface DisputeOptions {
  reason?: DisputeSpec["reason"];
  inquiry?: boolean;
}

/**
 * The emulator's helper: the cardholder disputes this captured charge now, for what is left of it
 * after refunds (e.g. after a partial refund, which Stripe's test cards cannot arrange).
 */
export function disputeCharge(ctx: Ctx, chargeId: string, options: DisputeOptions = {}): Stripe.Dispute {
  const charge = requireObject(ctx, "charge", chargeId);
  if (charge.status !== "succeeded" || !charge.captured || charge.amount_captured <= charge.amount_refunded)
    throw invalidRequest(`Charge ${charge.id} has nothing captured left to dispute.`);
  if (ctx.account.store.all("dispute").some((dispute) => dispute.charge === charge.id))
    throw invalidRequest(`Charge ${charge.id} is already disputed.`);
  const inquiry = options.inquiry ?? false;
  return openDispute(ctx, charge, {
    reason: options.reason ?? (inquiry ? "general" : "fraudulent"),
    inquiry,
    networkReasonCode: "10.4",
  });
}
