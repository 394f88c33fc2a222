import type { CustomerDetails } from "@/db/schema";

/**
 * The provider interface (decision 0008). Kassa talks to every payment provider through one of
 * two shapes: a card provider (Stripe: the payer's card is charged while they wait, maybe after a
 * 3-D Secure challenge) or a redirect provider (the payer finishes on the provider's own page and
 * the provider reports back through a signed webhook). Adapters never touch Kassa's tables except
 * through what they return; every method here may call the network, so none is ever called inside
 * a database transaction.
 */

/** What Kassa shows of a card (payment_details.card) and uses for fraud screening. */
export type CardInfo = {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  country: string | null;
  /** Same card, same value (per provider account): velocity rules count by it. */
  fingerprint: string | null;
};

export type ProviderFailure = {
  /** The provider's code (`card_declined`, `incorrect_number`, `provider_unavailable`, ...). */
  code: string;
  /** The issuer's reason when there is one (`insufficient_funds`, `fraudulent`, ...). */
  declineCode?: string | null;
  message: string;
};

/** A card (or wallet token) the payer gave: raw test card numbers in sandbox, a Stripe.js PaymentMethod in live. */
export type CardInstrument =
  | { kind: "card"; number: string; expMonth: number; expYear: number; cvc: string }
  | { kind: "token"; paymentMethodId: string };

export type PreparedInstrument =
  { ok: true; paymentMethodId: string; card: CardInfo | null } | { ok: false; failure: ProviderFailure };

/** The state of a charge at the provider, as Kassa records it. */
export type ChargeOutcome =
  | {
      status: "succeeded";
      providerPaymentId: string;
      amountReceived: number;
      card: CardInfo | null;
      /** The provider's fraud signal: Stripe Radar's `outcome.risk_level` (normal, elevated, highest). */
      riskLevel: string | null;
    }
  | { status: "requires_action"; providerPaymentId: string; challengeUrl: string }
  /** Accepted by the provider, result not known yet (e.g. an asynchronous capture). */
  | { status: "processing"; providerPaymentId: string }
  | {
      status: "failed";
      providerPaymentId: string | null;
      failure: ProviderFailure;
      /** The provider's own fraud prevention refused the charge (Radar `outcome.type: "blocked"`). */
      blocked: boolean;
      card: CardInfo | null;
    };

export type ChargeRequest = {
  /** Kassa's attempt id: the idempotency key of the charge and its metadata. */
  attemptId: string;
  sessionId: string;
  businessId: string;
  amount: number;
  currency: string;
  customerId: string;
  paymentMethodId: string;
  description: string | null;
  /** Save the card for later off-session charges (the session carries a subscription). */
  saveForFutureUse: boolean;
  /** Where the provider sends the payer back after a 3-D Secure challenge. */
  returnUrl: string;
  metadata: Record<string, string>;
  receiptEmail: string | null;
};

export type RefundRequest = {
  /** Kassa's refund id: the idempotency key. */
  refundId: string;
  providerPaymentId: string;
  amount: number;
  reason: "requested_by_customer" | "fraudulent" | "duplicate";
  metadata: Record<string, string>;
};

export type RefundOutcome =
  | { status: "succeeded" | "pending"; providerRefundId: string }
  | { status: "failed"; providerRefundId: string | null; failure: ProviderFailure };

export interface CardProvider {
  readonly name: string;
  readonly flow: "card";
  /** Turns what the payer entered into a reusable instrument (no money moves). */
  prepareInstrument(instrument: CardInstrument, billing: CustomerDetails | null): Promise<PreparedInstrument>;
  /** A customer at the provider for this payment (Kassa keeps its id to attribute events). */
  createCustomer(input: {
    businessId: string;
    sessionId: string;
    attemptId: string;
    email: string | null;
    name: string | null;
    phone: string | null;
    customerRef: string;
    /** Sandbox subscriptions: the business's Stripe test clock, so its clock drives the renewals. */
    testClock?: string | null;
  }): Promise<string>;
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
  /** Re-reads a charge (after a challenge, on an inbound event, when reconciling). */
  retrieveCharge(providerPaymentId: string): Promise<ChargeOutcome>;
  /**
   * The charge Kassa's attempt made, found without its id (a crash lost the provider's answer):
   * among the customer's charges, the one whose metadata names the attempt; null when there is none.
   */
  findChargeOfAttempt(attemptId: string, providerCustomerId: string): Promise<ChargeOutcome | null>;
  /** Gives up a charge waiting for the payer (an abandoned challenge); answers its final state. */
  cancelCharge(providerPaymentId: string): Promise<ChargeOutcome>;
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /**
   * Re-reads a refund (one left pending, or one the provider says changed: a card refund can fail
   * after it succeeded). Absent where the provider's refunds are final when answered.
   */
  retrieveRefund?(providerRefundId: string): Promise<RefundOutcome>;
}

/** A redirect payment at the provider, as Kassa reads it. */
export type RedirectPaymentState = {
  providerPaymentId: string;
  /** open: nothing paid yet; underpaid: part received; paid: all received; failed: given up. */
  status: "open" | "underpaid" | "paid" | "failed";
  amount: number;
  amountReceived: number;
  reference: string;
};

export type StartRedirectRequest = {
  attemptId: string;
  sessionId: string;
  businessId: string;
  method: string;
  amount: number;
  currency: string;
  description: string | null;
  /** Where the provider's page sends the payer afterwards: `{checkout_url}/{session_id}`. */
  returnUrl: string;
  metadata: Record<string, string>;
};

export interface RedirectProvider {
  readonly name: string;
  readonly flow: "redirect";
  /** Creates the payment at the provider; throws ProviderError when the provider refuses. */
  startPayment(request: StartRedirectRequest): Promise<{ providerPaymentId: string; redirectUrl: string }>;
  retrievePayment(providerPaymentId: string): Promise<RedirectPaymentState>;
  /** The payment started for an attempt (its reference), found without its id; null when there is none. */
  findPaymentOfAttempt(attemptId: string): Promise<RedirectPaymentState | null>;
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /** As CardProvider's: absent where refunds are final when answered. */
  retrieveRefund?(providerRefundId: string): Promise<RefundOutcome>;
}

export type PaymentProvider = CardProvider | RedirectProvider;
