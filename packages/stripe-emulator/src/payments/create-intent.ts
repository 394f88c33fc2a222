import type Stripe from "stripe";
import { emit } from "../events";
import { newClientSecret, newObjectId } from "../ids";
import { type Ctx, timeForCustomer } from "../state";

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
