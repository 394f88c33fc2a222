import type Stripe from "stripe";
import type { CardBehavior } from "./cards";
import { cardError, invalidRequest, type StripeApiError } from "./errors";
import { emit, snapshot } from "./events";
import { newClientSecret, newObjectId, randomBase62 } from "./ids";
import { consumedMessage } from "./resources/payment-methods";
import { type CardInternals, type Ctx, timeForCustomer } from "./state";

/** Radar's risk score for each level (Stripe: normal < 65 ≤ elevated < 75 ≤ highest). */
const riskScores = { normal: 21, elevated: 67, highest: 91 } as const;

/** What the issuer (or Radar) answers for one charge attempt. */
type Decision =
  | { kind: "approve"; risk: "normal" | "elevated"; threeDSecure: boolean }
  | { kind: "decline"; code: string; declineCode: string; message: string; blocked: boolean }
  | { kind: "authenticate" };

const authenticationRequired = {
  kind: "decline",
  code: "authentication_required",
  declineCode: "authentication_required",
  message: "Your card was declined. This transaction requires authentication.",
  blocked: false,
} as const;

function decide(
  behavior: CardBehavior,
  card: CardInternals,
  { offSession, authenticated }: { offSession: boolean; authenticated: boolean },
): Decision {
  switch (behavior.kind) {
    case "succeed":
      return { kind: "approve", risk: behavior.risk, threeDSecure: false };
    case "decline":
      return {
        kind: "decline",
        code: behavior.code,
        declineCode: behavior.declineCode,
        message: behavior.message,
        blocked: false,
      };
    case "charge_customer_fail":
      return {
        kind: "decline",
        code: "card_declined",
        declineCode: "generic_decline",
        message: "Your card was declined.",
        blocked: false,
      };
    case "blocked":
      return {
        kind: "decline",
        code: "card_declined",
        declineCode: "fraudulent",
        message: "Your card was declined.",
        blocked: true,
      };
    case "authenticate":
      if (authenticated) return { kind: "approve", risk: "normal", threeDSecure: true };
      if (behavior.unlessSetUp && offSession && card.setUpForOffSession) {
        return { kind: "approve", risk: "normal", threeDSecure: false };
      }
      return { kind: "authenticate" };
  }
}

/**
 * What a charge to this payment method would do, without doing it: for `error_if_incomplete`
 * subscriptions, which Stripe does not create at all when their first payment fails.
 */
export function predictCharge(
  ctx: Ctx,
  paymentMethodId: string,
  { offSession }: { offSession: boolean },
): { ok: true } | { ok: false; code: string; declineCode: string; message: string } {
  const card = ctx.account.cards.get(paymentMethodId);
  if (!card) return { ok: true };
  const decision = decide(card.behavior, card, { offSession, authenticated: false });
  if (decision.kind === "approve") return { ok: true };
  if (decision.kind === "authenticate") return { ok: false, ...authenticationRequired };
  return { ok: false, code: decision.code, declineCode: decision.declineCode, message: decision.message };
}

function outcomeFor(decision: Decision): Stripe.Charge.Outcome {
  const base = { advice_code: null, network_advice_code: null, network_decline_code: null };
  if (decision.kind === "approve") {
    return {
      ...base,
      network_status: "approved_by_network",
      reason: decision.risk === "elevated" ? "elevated_risk_level" : null,
      risk_level: decision.risk,
      risk_score: riskScores[decision.risk],
      seller_message: "Payment complete.",
      type: "authorized",
    };
  }
  if (decision.kind === "decline" && decision.blocked) {
    return {
      ...base,
      network_status: "not_sent_to_network",
      reason: "highest_risk_level",
      risk_level: "highest",
      risk_score: riskScores.highest,
      seller_message: "Stripe blocked this payment as too risky.",
      type: "blocked",
    };
  }
  const declineCode = decision.kind === "decline" ? decision.declineCode : "authentication_required";
  return {
    ...base,
    advice_code: declineCode === "insufficient_funds" ? "try_again_later" : "do_not_try_again",
    network_decline_code: "05",
    network_status: "declined_by_network",
    reason: declineCode,
    risk_level: "normal",
    risk_score: riskScores.normal,
    seller_message:
      declineCode === "generic_decline"
        ? "The bank did not return any further details with this decline."
        : `The bank returned the decline code \`${declineCode}\`.`,
    type: "issuer_declined",
  };
}

/** Stripe's US card pricing, for the balance transaction of a charge: 2.9% + 30¢. */
export const processingFee = (amount: number) => Math.round(amount * 0.029) + 30;

function createBalanceTransaction(
  ctx: Ctx,
  fields: {
    amount: number;
    fee: number;
    currency: string;
    source: string;
    type: "charge" | "refund" | "refund_failure";
    created: number;
    description: string | null;
  },
): Stripe.BalanceTransaction {
  const transaction: Stripe.BalanceTransaction = {
    id: newObjectId("txn"),
    object: "balance_transaction",
    amount: fields.amount,
    available_on: fields.created + 2 * 86_400,
    balance_type: "payments",
    created: fields.created,
    currency: fields.currency,
    description: fields.description,
    exchange_rate: null,
    fee: fields.fee,
    fee_details: fields.fee
      ? [
          {
            amount: fields.fee,
            application: null,
            currency: fields.currency,
            description: "Stripe processing fees",
            type: "stripe_fee",
          },
        ]
      : [],
    net: fields.amount - fields.fee,
    reporting_category: fields.type,
    source: fields.source,
    status: "pending",
    type: fields.type,
  };
  return ctx.account.store.insert("balance_transaction", transaction);
}

export { createBalanceTransaction };

function createCharge(
  ctx: Ctx,
  intent: Stripe.PaymentIntent,
  paymentMethod: Stripe.PaymentMethod,
  decision: Exclude<Decision, { kind: "authenticate" }>,
): Stripe.Charge {
  const created = timeForCustomer(ctx, customerId(intent));
  const succeeded = decision.kind === "approve";
  const captured = succeeded && intent.capture_method !== "manual";
  const card = paymentMethod.card;
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
      card: {
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
      },
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

export const customerId = (intent: Stripe.PaymentIntent): string | null =>
  typeof intent.customer === "string" ? intent.customer : (intent.customer?.id ?? null);

const paymentMethodId = (intent: Stripe.PaymentIntent): string | null =>
  typeof intent.payment_method === "string" ? intent.payment_method : (intent.payment_method?.id ?? null);

export interface IntentInput {
  amount: number;
  currency: string;
  customer: string | null;
  paymentMethod: string | null;
  description: string | null;
  metadata: Record<string, string>;
  setupFutureUsage: "on_session" | "off_session" | null;
  captureMethod: "automatic" | "automatic_async" | "manual";
  /** Null when `payment_method_types` were given. */
  automaticPaymentMethods: { enabled: boolean; allow_redirects?: "always" | "never" } | null;
  allowedPaymentMethodTypes: string[] | null;
  paymentMethodTypes: string[];
  receiptEmail: string | null;
}

export function createIntent(ctx: Ctx, input: IntentInput): Stripe.PaymentIntent {
  const id = newObjectId("pi");
  const intent: Stripe.PaymentIntent = {
    id,
    object: "payment_intent",
    allowed_payment_method_types: input.allowedPaymentMethodTypes as
      Stripe.PaymentIntent.AllowedPaymentMethodType[] | null,
    amount: input.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: input.automaticPaymentMethods,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: input.captureMethod,
    client_secret: newClientSecret(id),
    confirmation_method: "automatic",
    created: timeForCustomer(ctx, input.customer),
    currency: input.currency,
    customer: input.customer,
    customer_account: null,
    description: input.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: input.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: input.paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: "automatic" },
    },
    payment_method_types: input.paymentMethodTypes,
    payment_record: null,
    processing: null,
    receipt_email: input.receiptEmail,
    review: null,
    setup_future_usage: input.setupFutureUsage,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: input.paymentMethod ? "requires_confirmation" : "requires_payment_method",
    transfer_data: null,
    transfer_group: null,
  };
  ctx.account.store.insert("payment_intent", intent);
  emit(ctx, "payment_intent.created", intent, { created: intent.created });
  return intent;
}

export function requireIntentStatus(
  intent: Stripe.PaymentIntent,
  allowed: Stripe.PaymentIntent.Status[],
  [verb, pastTense]: [string, string],
): void {
  if (allowed.includes(intent.status)) return;
  throw invalidRequest(
    `You cannot ${verb} this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be ${pastTense}: ${allowed.join(", ")}.`,
    { code: "payment_intent_unexpected_state" },
  );
}

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

  const created = timeForCustomer(ctx, customer);
  let decision = decide(card.behavior, card, { offSession, authenticated });
  if (decision.kind === "authenticate" && ((offSession && !forInvoice) || errorOnRequiresAction)) {
    decision = authenticationRequired;
  }

  if (decision.kind === "authenticate") {
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

  const charge = createCharge(ctx, intent, paymentMethod, decision);
  intent.latest_charge = charge.id;
  intent.next_action = null;

  if (decision.kind === "decline") {
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
  return { outcome: "succeeded" };
}

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
