import type Stripe from "stripe";
import { hardDeclineCodes } from "../cards";
import { emit, snapshot } from "../events";
import { invoicePageUrls } from "../invoice-pages";
import { type Ctx, idOf, timeOn } from "../state";
import { endSubscription, setSubscriptionStatus, subscriptionOfInvoice } from "./subscription-status";

export function finalizeInvoice(ctx: Ctx, invoice: Stripe.Invoice): void {
  const created = timeOn(ctx, idOf(invoice.test_clock as string | null));
  const before = snapshot(invoice);
  const customer = invoice.customer
    ? ctx.account.store.get("customer", idOf(invoice.customer as string) ?? "")
    : undefined;
  if (customer) {
    const sequence = customer.next_invoice_sequence ?? 1;
    invoice.number = `${customer.invoice_prefix ?? "INV"}-${String(sequence).padStart(4, "0")}`;
    customer.next_invoice_sequence = sequence + 1;
    // The customer's balance is applied to (or, for a credit note-like negative total, grown by) the invoice.
    invoice.ending_balance = Math.min(0, invoice.total + invoice.starting_balance);
    customer.balance = invoice.ending_balance;
  }
  invoice.status = "open";
  invoice.effective_at = created;
  invoice.automatically_finalizes_at = null;
  invoice.status_transitions.finalized_at = created;
  const pages = invoicePageUrls(ctx, invoice.id);
  invoice.hosted_invoice_url = pages.hosted;
  invoice.invoice_pdf = pages.pdf;
  emit(ctx, "invoice.finalized", invoice, { created });
  emit(ctx, "invoice.updated", invoice, { created, before });
  if (invoice.amount_due === 0) markInvoicePaid(ctx, invoice, null);
}

export function markInvoicePaid(
  ctx: Ctx,
  invoice: Stripe.Invoice,
  intent: Stripe.PaymentIntent | null,
  { outOfBand = false }: { outOfBand?: boolean } = {},
): void {
  const created = timeOn(ctx, idOf(invoice.test_clock as string | null));
  const before = snapshot(invoice);
  invoice.status = "paid";
  invoice.amount_paid = invoice.amount_due;
  invoice.amount_remaining = 0;
  invoice.next_payment_attempt = null;
  invoice.status_transitions.paid_at = created;
  if (intent) {
    const payment = ctx.account.store
      .all("invoice_payment")
      .find((p) => p.payment.payment_intent === intent.id);
    if (payment) {
      payment.status = "paid";
      payment.amount_paid = intent.amount_received;
      payment.status_transitions.paid_at = created;
      emit(ctx, "invoice_payment.paid", payment, { created });
    }
  }
  emit(ctx, "invoice.updated", invoice, { created, before });
  emit(ctx, "invoice.paid", invoice, { created });
  if (!outOfBand) emit(ctx, "invoice.payment_succeeded", invoice, { created });
  const subscription = subscriptionOfInvoice(ctx, invoice);
  if (subscription && idOf(subscription.latest_invoice as string | null) === invoice.id) {
    if (
      intent?.payment_method &&
      invoice.billing_reason === "subscription_create" &&
      subscription.payment_settings?.save_default_payment_method === "on_subscription"
    ) {
      // Stripe saves the first invoice's payment method as the subscription's default.
      const before = snapshot(subscription);
      subscription.default_payment_method = idOf(intent.payment_method as string);
      if (subscription.status !== "incomplete") {
        emit(ctx, "customer.subscription.updated", subscription, { created, before });
      }
    }
    if (["incomplete", "past_due", "unpaid"].includes(subscription.status)) {
      const inTrial = subscription.trial_end !== null && subscription.trial_end > created;
      setSubscriptionStatus(ctx, subscription, inTrial ? "trialing" : "active");
    }
  }
}

/**
 * After a failed attempt: the next retry on the account's schedule, or, once retries are spent
 * (or the decline is a hard one), the account's final action on the subscription.
 */
export function markInvoiceFailed(
  ctx: Ctx,
  invoice: Stripe.Invoice,
  intent: Stripe.PaymentIntent,
  { requiresAction, before }: { requiresAction: boolean; before: Stripe.Invoice },
): void {
  const created = timeOn(ctx, idOf(invoice.test_clock as string | null));
  const subscription = subscriptionOfInvoice(ctx, invoice);
  const renewal = invoice.billing_reason === "subscription_cycle";
  const declineCode = intent.last_payment_error?.decline_code;
  const delays = ctx.account.billing.retryDelaysSeconds;
  const retriesLeft =
    invoice.attempt_count - 1 < delays.length && !(declineCode && hardDeclineCodes.has(declineCode));
  invoice.next_payment_attempt =
    renewal && retriesLeft ? created + (delays[invoice.attempt_count - 1] ?? 0) : null;
  emit(ctx, "invoice.updated", invoice, { created, before });
  emit(ctx, "invoice.payment_failed", invoice, { created });
  if (requiresAction) emit(ctx, "invoice.payment_action_required", invoice, { created });
  if (!subscription || !renewal) return;
  if (["active", "trialing"].includes(subscription.status))
    setSubscriptionStatus(ctx, subscription, "past_due");
  if (invoice.next_payment_attempt !== null || subscription.status === "canceled") return;
  const after = ctx.account.billing.afterRetries;
  if (after === "cancel") endSubscription(ctx, subscription, { reason: "payment_failed" });
  else if (after === "mark_unpaid") setSubscriptionStatus(ctx, subscription, "unpaid");
}

/**
 * When a PaymentIntent of an invoice succeeds outside collection (the customer completed 3D
 * Secure, or the PaymentIntent was confirmed through the API), the invoice is paid.
 */
export function settleInvoiceOfIntent(ctx: Ctx, intent: Stripe.PaymentIntent): void {
  const invoiceId = ctx.account.invoiceByPaymentIntent.get(intent.id);
  const invoice = invoiceId ? ctx.account.store.get("invoice", invoiceId) : undefined;
  if (!invoice || invoice.status !== "open") return;
  if (intent.status === "succeeded") markInvoicePaid(ctx, invoice, intent);
}
