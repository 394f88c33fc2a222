import Stripe from "stripe";
import type { CustomerDetails } from "@/db/schema";
import { ProviderError } from "@/lib/errors";
import type {
  CardInfo,
  CardInstrument,
  CardProvider,
  ChargeOutcome,
  ChargeRequest,
  PreparedInstrument,
  ProviderFailure,
  RefundOutcome,
  RefundRequest,
} from "../types";

/** Stripe's errors that mean "this request was refused" rather than "the outcome is unknown". */
function refusal(error: unknown): ProviderFailure | null {
  if (!(error instanceof Stripe.errors.StripeError)) return null;
  if (
    error instanceof Stripe.errors.StripeCardError ||
    error instanceof Stripe.errors.StripeInvalidRequestError
  )
    return {
      code: error.code ?? error.type,
      declineCode: error.decline_code ?? null,
      message: error.message,
    };
  return null;
}

/** A call that did not answer (network, 5xx, 429): raised as a ProviderError, the outcome unknown. */
function unavailable(error: unknown): never {
  if (
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError
  )
    throw new ProviderError(`Stripe refused Kassa's key: ${error.message}`, "provider_configuration");
  if (error instanceof Stripe.errors.StripeError)
    throw new ProviderError(`Stripe is unavailable: ${error.message}`, "provider_unavailable");
  throw error;
}

function cardInfo(
  card: Stripe.PaymentMethod.Card | Stripe.Charge.PaymentMethodDetails.Card | null | undefined,
): CardInfo | null {
  if (!card) return null;
  return {
    brand: card.brand ?? "unknown",
    last4: card.last4 ?? "",
    expMonth: card.exp_month,
    expYear: card.exp_year,
    country: card.country ?? null,
    fingerprint: card.fingerprint ?? null,
  };
}

function billingDetails(
  details: CustomerDetails | null,
): Stripe.PaymentMethodCreateParams.BillingDetails | undefined {
  if (!details) return undefined;
  const address = details.address
    ? Object.fromEntries(Object.entries(details.address).filter(([, v]) => typeof v === "string" && v !== ""))
    : undefined;
  const out: Stripe.PaymentMethodCreateParams.BillingDetails = {};
  if (details.name) out.name = details.name;
  if (details.email) out.email = details.email;
  if (details.phone) out.phone = details.phone;
  if (address && Object.keys(address).length) out.address = address;
  return Object.keys(out).length ? out : undefined;
}

const chargeOf = (intent: Stripe.PaymentIntent): Stripe.Charge | null =>
  intent.latest_charge && typeof intent.latest_charge === "object" ? intent.latest_charge : null;

/** Where the payer answers the 3-D Secure challenge. */
function challengeUrl(intent: Stripe.PaymentIntent): string | null {
  const action = intent.next_action;
  if (!action) return null;
  if (action.redirect_to_url?.url) return action.redirect_to_url.url;
  const sdk = action.use_stripe_sdk as { stripe_js?: unknown } | undefined;
  return typeof sdk?.stripe_js === "string" ? sdk.stripe_js : null;
}

/**
 * The Stripe adapter: live businesses' own accounts and sandbox businesses' emulator accounts,
 * through the same official SDK. Card payments are PaymentIntents confirmed at once with a
 * PaymentMethod and a Customer; Kassa's ids travel in `metadata` so that Stripe's events can be
 * attributed to a business and an attempt even when they arrive before the API's answer.
 */
export class StripeAdapter implements CardProvider {
  readonly name = "stripe";
  readonly flow = "card" as const;

  constructor(readonly stripe: Stripe) {}

  async prepareInstrument(
    instrument: CardInstrument,
    billing: CustomerDetails | null,
  ): Promise<PreparedInstrument> {
    try {
      const method =
        instrument.kind === "card"
          ? await this.stripe.paymentMethods.create({
              type: "card",
              card: {
                number: instrument.number,
                exp_month: instrument.expMonth,
                exp_year: instrument.expYear,
                cvc: instrument.cvc,
              },
              billing_details: billingDetails(billing),
            })
          : await this.stripe.paymentMethods.retrieve(instrument.paymentMethodId);
      if (method.type !== "card" || !method.card)
        return {
          ok: false,
          failure: { code: "unsupported_payment_method", message: "Only cards are accepted here" },
        };
      return { ok: true, paymentMethodId: method.id, card: cardInfo(method.card) };
    } catch (error) {
      const failure = refusal(error);
      if (failure) return { ok: false, failure };
      unavailable(error);
    }
  }

  async createCustomer(input: Parameters<CardProvider["createCustomer"]>[0]): Promise<string> {
    try {
      const customer = await this.stripe.customers.create(
        {
          ...(input.email ? { email: input.email } : {}),
          ...(input.name ? { name: input.name } : {}),
          ...(input.phone ? { phone: input.phone } : {}),
          ...(input.testClock ? { test_clock: input.testClock } : {}),
          metadata: {
            kassa_business_id: input.businessId,
            kassa_session_id: input.sessionId,
            kassa_attempt_id: input.attemptId,
            kassa_customer: input.customerRef.slice(0, 500),
          },
        },
        { idempotencyKey: `kassa-customer-${input.attemptId}` },
      );
      return customer.id;
    } catch (error) {
      const failure = refusal(error);
      if (failure) throw new ProviderError(`Stripe refused the customer: ${failure.message}`, failure.code);
      unavailable(error);
    }
  }

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.create(
        {
          amount: request.amount,
          currency: request.currency.toLowerCase(),
          customer: request.customerId,
          payment_method: request.paymentMethodId,
          allowed_payment_method_types: ["card"],
          confirm: true,
          return_url: request.returnUrl,
          ...(request.saveForFutureUse ? { setup_future_usage: "off_session" as const } : {}),
          ...(request.description ? { description: request.description.slice(0, 1000) } : {}),
          ...(request.receiptEmail ? { receipt_email: request.receiptEmail } : {}),
          metadata: request.metadata,
          expand: ["latest_charge"],
        },
        { idempotencyKey: `kassa-charge-${request.attemptId}` },
      );
    } catch (error) {
      const failure = refusal(error);
      if (!failure) unavailable(error);
      const failedIntent = error instanceof Stripe.errors.StripeError ? error.payment_intent : undefined;
      // A decline: read the intent back for the charge's Radar outcome and the card.
      if (failedIntent?.id) return this.retrieveCharge(failedIntent.id);
      return { status: "failed", providerPaymentId: null, failure, blocked: false, card: null };
    }
    return this.outcomeOf(intent);
  }

  async retrieveCharge(providerPaymentId: string): Promise<ChargeOutcome> {
    try {
      return this.outcomeOf(
        await this.stripe.paymentIntents.retrieve(providerPaymentId, { expand: ["latest_charge"] }),
      );
    } catch (error) {
      unavailable(error);
    }
  }

  async findChargeOfAttempt(attemptId: string, providerCustomerId: string): Promise<ChargeOutcome | null> {
    try {
      // A customer the account does not know means the wrong account (or an emulator that never
      // saw it), not "no charge": that is an error, never an answer.
      await this.stripe.customers.retrieve(providerCustomerId);
      // A payment's customer is made for it (createCustomer), so its charges are few.
      for await (const intent of this.stripe.paymentIntents.list({
        customer: providerCustomerId,
        limit: 100,
      }))
        if (intent.metadata?.kassa_attempt_id === attemptId) return this.retrieveCharge(intent.id);
      return null;
    } catch (error) {
      unavailable(error);
    }
  }

  async cancelCharge(providerPaymentId: string): Promise<ChargeOutcome> {
    try {
      await this.stripe.paymentIntents.cancel(providerPaymentId, { cancellation_reason: "abandoned" });
    } catch (error) {
      // Already succeeded or canceled: its state is what counts.
      if (!refusal(error)) unavailable(error);
    }
    return this.retrieveCharge(providerPaymentId);
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    try {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: request.providerPaymentId,
          amount: request.amount,
          reason: request.reason,
          metadata: request.metadata,
        },
        { idempotencyKey: `kassa-refund-${request.refundId}` },
      );
      return refundOutcome(refund);
    } catch (error) {
      const failure = refusal(error);
      if (failure) return { status: "failed", providerRefundId: null, failure };
      unavailable(error);
    }
  }

  async retrieveRefund(providerRefundId: string): Promise<RefundOutcome> {
    try {
      return refundOutcome(await this.stripe.refunds.retrieve(providerRefundId));
    } catch (error) {
      unavailable(error);
    }
  }

  private outcomeOf(intent: Stripe.PaymentIntent): ChargeOutcome {
    const charge = chargeOf(intent);
    const card = cardInfo(charge?.payment_method_details?.card);
    switch (intent.status) {
      case "succeeded":
        return {
          status: "succeeded",
          providerPaymentId: intent.id,
          amountReceived: intent.amount_received,
          card,
          riskLevel: charge?.outcome?.risk_level ?? null,
        };
      case "requires_action": {
        const url = challengeUrl(intent);
        if (url) return { status: "requires_action", providerPaymentId: intent.id, challengeUrl: url };
        return { status: "processing", providerPaymentId: intent.id };
      }
      case "processing":
      case "requires_capture":
      case "requires_confirmation":
        return { status: "processing", providerPaymentId: intent.id };
      case "canceled":
        return {
          status: "failed",
          providerPaymentId: intent.id,
          failure: { code: "canceled", message: "The payment was canceled" },
          blocked: false,
          card,
        };
      case "requires_payment_method": {
        const lastError = intent.last_payment_error;
        return {
          status: "failed",
          providerPaymentId: intent.id,
          failure: {
            code: lastError?.code ?? "payment_failed",
            declineCode: lastError?.decline_code ?? null,
            message: lastError?.message ?? "The payment failed",
          },
          blocked: charge?.outcome?.type === "blocked",
          card,
        };
      }
      default:
        return { status: "processing", providerPaymentId: intent.id };
    }
  }
}

/** Why Stripe says a refund failed, in words (its `failure_reason` codes). */
const refundFailureMessages: Record<string, string> = {
  charge_for_pending_refund_disputed: "The charge was disputed while the refund was pending",
  declined: "The card network declined the refund",
  expired_or_canceled_card: "The card was expired or canceled, so the refund could not reach it",
  insufficient_funds: "The Stripe balance could not cover the refund",
  lost_or_stolen_card: "The card was reported lost or stolen, so the refund could not reach it",
  merchant_request: "The refund was canceled at Stripe",
  unknown: "The refund failed at Stripe for an unknown reason",
};

/** A Stripe refund as Kassa reads it: succeeded, pending (also requires_action), or failed/canceled. */
function refundOutcome(refund: Stripe.Refund): RefundOutcome {
  if (refund.status === "succeeded") return { status: "succeeded", providerRefundId: refund.id };
  if (refund.status === "pending" || refund.status === "requires_action")
    return { status: "pending", providerRefundId: refund.id };
  const code = refund.failure_reason ?? "refund_failed";
  return {
    status: "failed",
    providerRefundId: refund.id,
    failure: {
      code,
      message: `${refundFailureMessages[code] ?? `Stripe refund ${refund.status}`} (${code})`,
    },
  };
}
