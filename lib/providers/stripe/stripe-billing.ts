import Stripe from "stripe";
import { ProviderError } from "@/lib/errors";

/**
 * Stripe Billing for Kassa's subscriptions (decision 0013): the subscription that charges every
 * renewal on the business's own account, read back as Kassa needs it. Like the card adapter it
 * never touches Kassa's tables, and every call may use the network: never inside a transaction.
 *
 * Errors: a refusal (Stripe answered no: invalid request, card error, key not allowed) is a
 * ProviderError whose `errorType` is Stripe's code; a call that did not get an answer is a
 * ProviderError with `errorType` "provider_unavailable" (the outcome is unknown; retry).
 */

export type ProviderSubscriptionState = {
  id: string;
  /** Stripe's status in Kassa's terms; `other` for incomplete ones (not started yet). */
  status: "active" | "past_due" | "canceled" | "other";
  rawStatus: Stripe.Subscription.Status;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  /** Scheduled to end at the period end (or at a set time). */
  cancelScheduled: boolean;
  /** `kassa:<actor>` when Kassa scheduled or ended it; anything else came from elsewhere (dashboard). */
  cancelComment: string | null;
  /** Stripe's `cancellation_details.reason`: `cancellation_requested`, `payment_failed`, ... */
  cancellationReason: string | null;
  endedAt: Date | null;
  metadata: Record<string, string>;
};

export type ProviderInvoiceState = {
  id: string;
  subscriptionId: string | null;
  status: Stripe.Invoice.Status | null;
  billingReason: Stripe.Invoice.BillingReason | null;
  amountPaid: number;
  amountDue: number;
  /** The service period the invoice bills (its subscription line's period). */
  periodStart: Date | null;
  periodEnd: Date | null;
  /** Why its last charge failed: `authentication_required` when the bank wants the payer, else Stripe's code. */
  failureReason: string | null;
  /** A charge was attempted (and, when still open, failed). */
  attempted: boolean;
  /** The PaymentIntent that paid it (what a refund of the renewal refunds); null until paid. */
  paymentIntentId: string | null;
  /** Stripe's page where the payer pays the open invoice (hosted_invoice_url); null until finalized. */
  hostedInvoiceUrl: string | null;
};

export type CreateProviderSubscription = {
  /** Kassa's subscription id: idempotency keys and metadata. */
  subscriptionId: string;
  businessId: string;
  customerId: string;
  paymentMethodId: string;
  productName: string;
  /** Cents charged at each renewal. */
  unitAmount: number;
  currency: string;
  interval: "day" | "week" | "month" | "year";
  intervalCount: number;
  /** First renewal: the end of the period the signup payment paid for. */
  firstRenewalAt: Date;
};

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const dateOf = (value: number | null | undefined) =>
  typeof value === "number" ? new Date(value * 1000) : null;

function fail(error: unknown, what: string): never {
  if (
    error instanceof Stripe.errors.StripeCardError ||
    error instanceof Stripe.errors.StripeInvalidRequestError ||
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError
  )
    throw new ProviderError(`Stripe refused to ${what}: ${error.message}`, error.code ?? "invalid_request");
  if (error instanceof Stripe.errors.StripeError)
    throw new ProviderError(`Stripe is unavailable: ${error.message}`, "provider_unavailable");
  throw error;
}

export function isUnavailable(error: unknown): boolean {
  return error instanceof ProviderError && error.errorType === "provider_unavailable";
}

export function subscriptionState(subscription: Stripe.Subscription): ProviderSubscriptionState {
  const item = subscription.items?.data?.[0];
  const status =
    subscription.status === "active" || subscription.status === "trialing"
      ? "active"
      : subscription.status === "past_due" || subscription.status === "unpaid"
        ? "past_due"
        : subscription.status === "canceled" || subscription.status === "incomplete_expired"
          ? "canceled"
          : "other";
  return {
    id: subscription.id,
    status,
    rawStatus: subscription.status,
    currentPeriodStart: dateOf(item?.current_period_start),
    currentPeriodEnd: dateOf(item?.current_period_end),
    cancelScheduled: subscription.cancel_at_period_end || subscription.cancel_at !== null,
    cancelComment: subscription.cancellation_details?.comment ?? null,
    cancellationReason: subscription.cancellation_details?.reason ?? null,
    endedAt: dateOf(subscription.ended_at ?? subscription.canceled_at),
    metadata: subscription.metadata ?? {},
  };
}

export class StripeBilling {
  constructor(readonly stripe: Stripe) {}

  /** Makes the saved card the customer's default for invoices (Stripe charges renewals with it). */
  async setDefaultPaymentMethod(customerId: string, paymentMethodId: string): Promise<void> {
    try {
      await this.stripe.customers.update(customerId, {
        invoice_settings: { default_payment_method: paymentMethodId },
      });
    } catch (error) {
      fail(error, "set the customer's default card");
    }
  }

  /**
   * The subscription that charges renewals: nothing now (the signup payment paid the first
   * period), the first charge at `firstRenewalAt` (billing_cycle_anchor without proration, so the
   * first invoice is $0), off-session with the saved card.
   */
  async createSubscription(input: CreateProviderSubscription): Promise<ProviderSubscriptionState> {
    try {
      const product = await this.stripe.products.create(
        { name: input.productName.slice(0, 250), metadata: { kassa_subscription_id: input.subscriptionId } },
        { idempotencyKey: `kassa-product-${input.subscriptionId}` },
      );
      const subscription = await this.stripe.subscriptions.create(
        {
          customer: input.customerId,
          items: [
            {
              price_data: {
                currency: input.currency.toLowerCase(),
                product: product.id,
                unit_amount: input.unitAmount,
                recurring: { interval: input.interval, interval_count: input.intervalCount },
              },
            },
          ],
          default_payment_method: input.paymentMethodId,
          billing_cycle_anchor: seconds(input.firstRenewalAt),
          proration_behavior: "none",
          off_session: true,
          metadata: { kassa_business_id: input.businessId, kassa_subscription_id: input.subscriptionId },
        },
        { idempotencyKey: `kassa-subscription-${input.subscriptionId}` },
      );
      return subscriptionState(subscription);
    } catch (error) {
      fail(error, "create the subscription");
    }
  }

  async retrieveSubscription(id: string): Promise<ProviderSubscriptionState> {
    try {
      return subscriptionState(await this.stripe.subscriptions.retrieve(id));
    } catch (error) {
      fail(error, "read the subscription");
    }
  }

  /** Ends it at the period end; `comment` (`kassa:<actor>`) tells our own schedule from the dashboard's. */
  async scheduleCancel(id: string, comment: string): Promise<ProviderSubscriptionState> {
    try {
      return subscriptionState(
        await this.stripe.subscriptions.update(id, {
          cancel_at_period_end: true,
          cancellation_details: { comment },
        }),
      );
    } catch (error) {
      fail(error, "schedule the cancellation");
    }
  }

  async resume(id: string): Promise<ProviderSubscriptionState> {
    try {
      return subscriptionState(
        await this.stripe.subscriptions.update(id, {
          cancel_at_period_end: false,
          cancellation_details: { comment: "" },
        }),
      );
    } catch (error) {
      fail(error, "resume the subscription");
    }
  }

  /** Ends it now and voids its unpaid invoices (Stripe only stops collecting them). No refund. */
  async cancelNow(id: string, comment: string): Promise<ProviderSubscriptionState> {
    let state: ProviderSubscriptionState;
    try {
      const current = await this.stripe.subscriptions.retrieve(id);
      state =
        current.status === "canceled" || current.status === "incomplete_expired"
          ? subscriptionState(current)
          : subscriptionState(
              await this.stripe.subscriptions.cancel(id, { cancellation_details: { comment } }),
            );
    } catch (error) {
      fail(error, "cancel the subscription");
    }
    try {
      for await (const invoice of this.stripe.invoices.list({ subscription: id, status: "open", limit: 100 }))
        if (invoice.id) await this.stripe.invoices.voidInvoice(invoice.id);
    } catch (error) {
      fail(error, "void the subscription's unpaid invoices");
    }
    return state;
  }

  async retrieveInvoice(id: string): Promise<ProviderInvoiceState> {
    let invoice: Stripe.Invoice;
    try {
      invoice = await this.stripe.invoices.retrieve(id, { expand: ["payments.data.payment.payment_intent"] });
    } catch (error) {
      fail(error, "read the invoice");
    }
    const line =
      invoice.lines?.data?.find((l) => l.parent?.subscription_item_details) ?? invoice.lines?.data?.[0];
    const intents = (invoice.payments?.data ?? [])
      .map((p) => p.payment?.payment_intent)
      .filter((pi): pi is Stripe.PaymentIntent => Boolean(pi && typeof pi === "object"));
    const latest = intents.sort((a, b) => b.created - a.created)[0];
    const failureReason =
      latest?.status === "requires_action" || latest?.last_payment_error?.code === "authentication_required"
        ? "authentication_required"
        : (latest?.last_payment_error?.decline_code ?? latest?.last_payment_error?.code ?? null);
    const subscription = invoice.parent?.subscription_details?.subscription;
    return {
      id: invoice.id!,
      subscriptionId: typeof subscription === "string" ? subscription : (subscription?.id ?? null),
      status: invoice.status ?? null,
      billingReason: invoice.billing_reason ?? null,
      amountPaid: invoice.amount_paid,
      amountDue: invoice.amount_due,
      periodStart: dateOf(line?.period?.start),
      periodEnd: dateOf(line?.period?.end),
      failureReason,
      attempted: invoice.attempted,
      paymentIntentId: intents.find((pi) => pi.status === "succeeded")?.id ?? null,
      hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
    };
  }
}
