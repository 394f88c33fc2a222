import type Stripe from "stripe";
import { collectInvoice } from "./billing/collect-invoice";
import { StripeApiError } from "./errors";
import { requireObject } from "./lookup";
import { attachPaymentMethod, createCardPaymentMethod } from "./resources/payment-methods";
import { type Ctx, idOf, timeForCustomer } from "./state";

/** What paying an open invoice from its hosted page came to: a line for the page. */
export type InvoicePageOutcome = { paid: boolean; message: string };

/**
 * Pays an open invoice from its hosted page (hosted_invoice_url) with a card number, as the payer
 * does on Stripe's page: the card is attached to the invoice's customer and charged on-session,
 * once. Stripe's test cards keep their meaning (4242… pays, 4000000000000002 declines). A paid
 * invoice sends invoice.paid like any other payment; a declined card leaves it open.
 */
export function payInvoiceFromPage(ctx: Ctx, invoiceId: string, cardNumber: string): InvoicePageOutcome {
  const invoice: Stripe.Invoice = requireObject(ctx, "invoice", invoiceId);
  if (invoice.status === "paid") return { paid: true, message: "This invoice is already paid." };
  if (invoice.status !== "open") return { paid: false, message: `This invoice is ${invoice.status ?? "draft"}: nothing to pay.` };
  const customerId = idOf(invoice.customer as string | null);
  const year = new Date(timeForCustomer(ctx, customerId) * 1000).getUTCFullYear() + 3;
  try {
    const paymentMethod = createCardPaymentMethod(ctx, { number: cardNumber, exp_month: 12, exp_year: year });
    if (customerId) attachPaymentMethod(ctx, paymentMethod, customerId);
    const outcome = collectInvoice(ctx, invoice, { offSession: false, paymentMethod: paymentMethod.id });
    if (outcome === "succeeded") return { paid: true, message: "Paid. Thank you." };
    if (outcome === "requires_action") return { paid: false, message: "This card needs authentication: try another card." };
    return { paid: false, message: "The card was declined: try another card." };
  } catch (error) {
    if (error instanceof StripeApiError) return { paid: false, message: error.body.message };
    throw error;
  }
}
