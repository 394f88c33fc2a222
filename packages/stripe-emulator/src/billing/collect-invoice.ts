import type Stripe from "stripe";
import { snapshot } from "../events";
import { newObjectId } from "../ids";
import { type ConfirmResult, confirmIntent, createIntent } from "../payments";
import { type Ctx, idOf } from "../state";
import { markInvoiceFailed, markInvoicePaid } from "./invoice-outcomes";
import { subscriptionOfInvoice } from "./subscription-status";

/** One collection attempt of an open invoice with the subscription's (or customer's) default card. */
export function collectInvoice(
  ctx: Ctx,
  invoice: Stripe.Invoice,
  { offSession, paymentMethod: chosen }: { offSession: boolean; paymentMethod?: string },
): ConfirmResult["outcome"] {
  const before = snapshot(invoice);
  const subscription = subscriptionOfInvoice(ctx, invoice);
  const customerId = idOf(invoice.customer as string | null);
  const customer = customerId ? ctx.account.store.get("customer", customerId) : undefined;
  const paymentMethod =
    chosen ??
    idOf(subscription?.default_payment_method as string | null) ??
    idOf(customer?.invoice_settings.default_payment_method as string | null);
  const intent = invoiceIntent(ctx, invoice);
  invoice.attempt_count += 1;
  invoice.attempted = true;

  if (!paymentMethod) {
    // Nothing to charge: the attempt fails and the retry schedule runs, as on Stripe.
    intent.status = "requires_payment_method";
    markInvoiceFailed(ctx, invoice, intent, { requiresAction: false, before });
    return "failed";
  }
  intent.payment_method = paymentMethod;
  intent.status = "requires_confirmation";
  const result = confirmIntent(ctx, intent, { offSession, forInvoice: true });
  if (result.outcome === "succeeded") markInvoicePaid(ctx, invoice, intent);
  else
    markInvoiceFailed(ctx, invoice, intent, { requiresAction: result.outcome === "requires_action", before });
  return result.outcome;
}

/** The PaymentIntent that collects an open invoice (created with its InvoicePayment on first need). */
export function invoiceIntent(ctx: Ctx, invoice: Stripe.Invoice): Stripe.PaymentIntent {
  const customerId = idOf(invoice.customer as string | null);
  let payment = ctx.account.store
    .all("invoice_payment")
    .find((p) => p.invoice === invoice.id && p.is_default);
  let intent = payment
    ? ctx.account.store.get("payment_intent", String(payment.payment.payment_intent))
    : undefined;
  if (!intent) {
    intent = createIntent(ctx, {
      amount: invoice.amount_due,
      currency: invoice.currency,
      customer: customerId,
      paymentMethod: null,
      description:
        invoice.billing_reason === "subscription_create" ? "Subscription creation" : "Subscription update",
      metadata: {},
      setupFutureUsage: null,
      captureMethod: "automatic",
      automaticPaymentMethods: null,
      allowedPaymentMethodTypes: null,
      paymentMethodTypes: ["card"],
      receiptEmail: null,
    });
    ctx.account.invoiceByPaymentIntent.set(intent.id, invoice.id);
    payment = {
      id: newObjectId("inpay"),
      object: "invoice_payment",
      amount_paid: null,
      amount_requested: invoice.amount_due,
      created: intent.created,
      currency: invoice.currency,
      invoice: invoice.id,
      is_default: true,
      livemode: false,
      payment: { payment_intent: intent.id, type: "payment_intent" },
      status: "open",
      status_transitions: { canceled_at: null, paid_at: null },
    };
    ctx.account.store.insert("invoice_payment", payment);
  }
  return intent;
}
