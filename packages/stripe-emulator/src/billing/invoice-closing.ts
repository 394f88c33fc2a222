import type Stripe from "stripe";
import { emit, snapshot } from "../events";
import { type Ctx, idOf, timeOn } from "../state";
import { markInvoicePaid } from "./invoice-outcomes";

/** `paid_out_of_band`: paid outside Stripe; nothing is charged and its open PaymentIntent is canceled. */
export function payInvoiceOutOfBand(ctx: Ctx, invoice: Stripe.Invoice): void {
  const at = timeOn(ctx, idOf(invoice.test_clock as string | null));
  cancelOpenPayments(ctx, invoice, at, "void_invoice");
  markInvoicePaid(ctx, invoice, null, { outOfBand: true });
}

export function markUncollectible(ctx: Ctx, invoice: Stripe.Invoice): void {
  const at = timeOn(ctx, idOf(invoice.test_clock as string | null));
  const before = snapshot(invoice);
  invoice.status = "uncollectible";
  invoice.next_payment_attempt = null;
  invoice.auto_advance = false;
  invoice.status_transitions.marked_uncollectible_at = at;
  emit(ctx, "invoice.updated", invoice, { created: at, before });
  emit(ctx, "invoice.marked_uncollectible", invoice, { created: at });
}

export function voidInvoice(ctx: Ctx, invoice: Stripe.Invoice): void {
  const at = timeOn(ctx, idOf(invoice.test_clock as string | null));
  invoice.status = "void";
  invoice.amount_remaining = 0;
  invoice.next_payment_attempt = null;
  invoice.auto_advance = false;
  invoice.status_transitions.voided_at = at;
  cancelOpenPayments(ctx, invoice, at, "void_invoice");
  emit(ctx, "invoice.voided", invoice, { created: at });
}

function cancelOpenPayments(
  ctx: Ctx,
  invoice: Stripe.Invoice,
  at: number,
  reason: Stripe.PaymentIntent.CancellationReason,
): void {
  for (const payment of ctx.account.store.all("invoice_payment")) {
    if (payment.invoice !== invoice.id || payment.status !== "open") continue;
    payment.status = "canceled";
    payment.status_transitions.canceled_at = at;
    const intent = ctx.account.store.get("payment_intent", String(payment.payment.payment_intent));
    if (intent && !["succeeded", "canceled"].includes(intent.status)) {
      intent.status = "canceled";
      intent.canceled_at = at;
      intent.cancellation_reason = reason;
      intent.next_action = null;
      emit(ctx, "payment_intent.canceled", intent, { created: at });
    }
  }
}
