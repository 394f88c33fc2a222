import type Stripe from "stripe";
import { emit } from "../events";
import { newObjectId } from "../ids";
import { listOf } from "../list";
import { type Ctx, idOf, timeOn } from "../state";
import type { LineInput } from "./invoice-lines";

/** A subscription's invoice, created in draft (invoice.created). */
export function createInvoice(
  ctx: Ctx,
  subscription: Stripe.Subscription,
  {
    billingReason,
    lines,
    periodStart,
    periodEnd,
    id = newObjectId("in"),
  }: {
    billingReason: Stripe.Invoice.BillingReason;
    lines: LineInput[];
    periodStart: number;
    periodEnd: number;
    id?: string;
  },
): Stripe.Invoice {
  const customerId = idOf(subscription.customer as string);
  const customer = customerId ? ctx.account.store.get("customer", customerId) : undefined;
  const created = timeOn(ctx, idOf(subscription.test_clock as string | null));
  const total = lines.reduce((sum, line) => sum + line.amount, 0);
  const startingBalance = customer?.balance ?? 0;
  const invoice = draftInvoice({
    id,
    subscription,
    customerId,
    customer,
    created,
    lines,
    billingReason,
    periodStart,
    periodEnd,
    total,
    startingBalance,
  });
  ctx.account.store.insert("invoice", invoice);
  emit(ctx, "invoice.created", invoice, { created });
  return invoice;
}

type DraftInput = {
  id: string;
  subscription: Stripe.Subscription;
  customerId: string | null;
  customer: Stripe.Customer | undefined;
  created: number;
  lines: LineInput[];
  billingReason: Stripe.Invoice.BillingReason;
  periodStart: number;
  periodEnd: number;
  total: number;
  startingBalance: number;
};

/** A new invoice of a subscription, in draft, its customer's balance applied to what is due. */
function draftInvoice(input: DraftInput): Stripe.Invoice {
  // Spread in this order so the fields keep their (alphabetical) order in the JSON.
  return {
    ...invoiceHead(input),
    ...customerFields(input.customerId, input.customer),
    ...invoiceTail(input),
  };
}

/** The draft invoice's fields before its customer's. */
function invoiceHead(input: DraftInput) {
  const { id, subscription, created, billingReason, total, startingBalance } = input;
  const amountDue = Math.max(0, total + startingBalance);
  return {
    id,
    object: "invoice",
    account_country: "US",
    account_name: "Stripe emulator",
    account_tax_ids: null,
    amount_due: amountDue,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: amountDue,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: billingReason,
    collection_method: "charge_automatically",
    created,
    currency: subscription.currency,
    custom_fields: null,
  } satisfies Partial<Stripe.Invoice>;
}

/** The draft invoice's fields after its customer's. */
function invoiceTail(input: DraftInput) {
  const { id, subscription, created, lines, periodStart, periodEnd, total, startingBalance } = input;
  return {
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: null,
    ending_balance: null,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: "self" },
    last_finalization_error: null,
    latest_revision: null,
    lines: listOf(
      lines.map((line) => lineItem(subscription, id, line)),
      `/v1/invoices/${id}/lines`,
    ),
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: null,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: { ...subscription.metadata }, subscription: subscription.id },
      type: "subscription_details",
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: periodEnd,
    period_start: periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: startingBalance,
    statement_descriptor: null,
    status: "draft",
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: total,
    subtotal_excluding_tax: total,
    test_clock: subscription.test_clock,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: created,
  } satisfies Partial<Stripe.Invoice>;
}

/** One line of a subscription's invoice. */
function lineItem(
  subscription: Stripe.Subscription,
  invoiceId: string,
  line: LineInput,
): Stripe.InvoiceLineItem {
  return {
    id: newObjectId("il"),
    object: "line_item",
    amount: line.amount,
    currency: subscription.currency,
    description: line.description,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: invoiceId,
    livemode: false,
    metadata: {},
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: line.proration,
        proration_details: { credited_items: null },
        subscription: subscription.id,
        subscription_item: line.item.id,
      },
      type: "subscription_item_details",
    },
    period: { end: line.end, start: line.start },
    pretax_credit_amounts: [],
    pricing: {
      price_details: {
        price: line.item.price.id,
        product: idOf(line.item.price.product as string) ?? "",
      },
      type: "price_details",
      unit_amount_decimal: line.item.price.unit_amount_decimal,
    },
    quantity: line.item.quantity ?? 1,
    quantity_decimal: null,
    subscription: subscription.id,
    subtotal: line.amount,
    taxes: [],
  };
}

/** The invoice's copy of its customer's details, as they are when it is created. */
function customerFields(customerId: string | null, customer: Stripe.Customer | undefined) {
  return {
    customer: customerId,
    customer_account: null,
    customer_address: customer?.address ?? null,
    customer_email: customer?.email ?? null,
    customer_name: customer?.name ?? null,
    customer_phone: customer?.phone ?? null,
    customer_shipping: null,
    customer_tax_exempt: "none",
    customer_tax_ids: [],
  } satisfies Partial<Stripe.Invoice>;
}
