import type Stripe from "stripe";
import { cardError, invalidRequest, type StripeApiError } from "../errors";
import { emit, snapshot } from "../events";
import { newObjectId } from "../ids";
import { consumedMessage } from "../resources/payment-methods";
import { type CardInternals, type Ctx, timeForCustomer } from "../state";
import { authenticationRequired, type Decision, decide } from "./card-decision";
import { afterCapturedCharge } from "../disputes/card-disputes";
import { createCharge } from "./create-charge";
import { customerId, paymentMethodId } from "./intent-fields";

export type ConfirmResult =
  | { outcome: "succeeded" | "requires_capture" | "requires_action" }
  | { outcome: "failed"; error: StripeApiError };

/**
 * One payment attempt on a PaymentIntent that has a payment method: the card's behaviour decides
 * between success (charge), decline (failed charge, 402), and 3D Secure (`requires_action`).
 * Off-session attempts that need authentication fail with `authentication_required`, except for
 * invoices, whose PaymentIntent waits in `requires_action` as Stripe Billing's do.
 */
export function confirmIntent(
  ctx: Ctx,
  intent: Stripe.PaymentIntent,
  {
    offSession,
    forInvoice = false,
    authenticated = false,
    errorOnRequiresAction = false,
  }: { offSession: boolean; forInvoice?: boolean; authenticated?: boolean; errorOnRequiresAction?: boolean },
): ConfirmResult {
  const { paymentMethod, card, customer } = chargeablePaymentMethod(ctx, intent);
  const created = timeForCustomer(ctx, customer);
  let decision = decide(card.behavior, card, { offSession, authenticated });
  if (decision.kind === "authenticate" && ((offSession && !forInvoice) || errorOnRequiresAction)) {
    decision = authenticationRequired;
  }
  if (decision.kind === "authenticate")
    return askForAuthentication(ctx, intent, paymentMethod, { offSession, created });

  const charge = createCharge(ctx, intent, paymentMethod, decision);
  intent.latest_charge = charge.id;
  intent.next_action = null;
  if (decision.kind === "decline")
    return recordDecline(ctx, intent, { charge, paymentMethod, decision, created });
  return recordApproval(ctx, intent, { charge, paymentMethod, card, customer, created });
}

/** The intent's payment method, if it may be charged for the intent's customer (else a 400). */
function chargeablePaymentMethod(ctx: Ctx, intent: Stripe.PaymentIntent) {
  const pmId = paymentMethodId(intent);
  if (!pmId) {
    throw invalidRequest(
      "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method.",
      { code: "payment_intent_unexpected_state" },
    );
  }
  const paymentMethod = ctx.account.store.get("payment_method", pmId);
  const card = ctx.account.cards.get(pmId);
  if (!paymentMethod || !card)
    throw invalidRequest(`No such PaymentMethod: '${pmId}'`, {
      param: "payment_method",
      code: "resource_missing",
    });
  const customer = customerId(intent);
  if (paymentMethod.customer && paymentMethod.customer !== customer) {
    throw invalidRequest(
      customer
        ? `The provided PaymentMethod belongs to a different Customer (${String(paymentMethod.customer)}) than the one on this PaymentIntent.`
        : "The provided PaymentMethod is attached to a Customer. Please include the Customer ID with the request.",
      { param: "payment_method" },
    );
  }
  if (!paymentMethod.customer && card.consumed)
    throw invalidRequest(consumedMessage, { param: "payment_method" });
  return { paymentMethod, card, customer };
}

/** 3D Secure: the intent waits in `requires_action` with the emulator's challenge page. */
function askForAuthentication(
  ctx: Ctx,
  intent: Stripe.PaymentIntent,
  paymentMethod: Stripe.PaymentMethod,
  { offSession, created }: { offSession: boolean; created: number },
): ConfirmResult {
  const before = snapshot(intent);
  intent.status = "requires_action";
  const challengeUrl = `${ctx.emu.baseUrl}/_emulator/3ds/${ctx.account.id}/${intent.id}`;
  const returnUrl = ctx.account.returnUrls.get(intent.id);
  intent.next_action = returnUrl
    ? { type: "redirect_to_url", redirect_to_url: { return_url: returnUrl, url: challengeUrl } }
    : ({
        type: "use_stripe_sdk",
        use_stripe_sdk: {
          type: "three_d_secure_redirect",
          stripe_js: challengeUrl,
          source: newObjectId("src"),
        },
      } as Stripe.PaymentIntent.NextAction);
  if (offSession) {
    intent.last_payment_error = {
      code: "authentication_required",
      decline_code: "authentication_required",
      doc_url: "https://stripe.com/docs/error-codes/authentication-required",
      message: authenticationRequired.message,
      payment_method: snapshot(paymentMethod),
      type: "card_error",
    };
  }
  emit(ctx, "payment_intent.requires_action", intent, { created, before });
  return { outcome: "requires_action" };
}

/** A declined charge: the intent asks for another payment method; the answer is a card error. */
function recordDecline(
  ctx: Ctx,
  intent: Stripe.PaymentIntent,
  {
    charge,
    paymentMethod,
    decision,
    created,
  }: {
    charge: Stripe.Charge;
    paymentMethod: Stripe.PaymentMethod;
    decision: Extract<Decision, { kind: "decline" }>;
    created: number;
  },
): ConfirmResult {
  intent.status = "requires_payment_method";
  intent.payment_method = null;
  intent.last_payment_error = {
    charge: charge.id,
    code: decision.code,
    decline_code: decision.declineCode,
    doc_url: `https://stripe.com/docs/error-codes/${decision.code.replace(/_/g, "-")}`,
    message: decision.message,
    payment_method: snapshot(paymentMethod),
    type: "card_error",
  };
  emit(ctx, "charge.failed", charge, { created });
  emit(ctx, "payment_intent.payment_failed", intent, { created });
  return {
    outcome: "failed",
    error: cardError({
      code: decision.code,
      decline_code: decision.declineCode,
      message: decision.message,
      charge: charge.id,
      payment_intent: snapshot(intent),
      payment_method: snapshot(paymentMethod),
    }),
  };
}

/** An approved charge: the card is saved or used up, and the intent succeeds or awaits capture. */
function recordApproval(
  ctx: Ctx,
  intent: Stripe.PaymentIntent,
  {
    charge,
    paymentMethod,
    card,
    customer,
    created,
  }: {
    charge: Stripe.Charge;
    paymentMethod: Stripe.PaymentMethod;
    card: CardInternals;
    customer: string | null;
    created: number;
  },
): ConfirmResult {
  intent.last_payment_error = null;
  if (intent.setup_future_usage && customer) {
    if (!paymentMethod.customer) {
      paymentMethod.customer = customer;
      emit(ctx, "payment_method.attached", paymentMethod, { created });
    }
    card.setUpForOffSession = true;
  } else if (!paymentMethod.customer && !intent.setup_future_usage) {
    card.consumed = true;
  }
  if (intent.capture_method === "manual") {
    intent.status = "requires_capture";
    intent.amount_capturable = intent.amount;
    emit(ctx, "charge.succeeded", charge, { created });
    emit(ctx, "payment_intent.amount_capturable_updated", intent, { created });
    return { outcome: "requires_capture" };
  }
  intent.status = "succeeded";
  intent.amount_received = intent.amount;
  emit(ctx, "charge.succeeded", charge, { created });
  emit(ctx, "payment_intent.succeeded", intent, { created });
  afterCapturedCharge(ctx, charge);
  return { outcome: "succeeded" };
}
