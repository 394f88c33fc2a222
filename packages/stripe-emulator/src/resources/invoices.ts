import {
  advanceDraft,
  collectInvoice,
  finalizeInvoice,
  markUncollectible,
  payInvoiceOutOfBand,
  voidInvoice,
} from "../billing";
import { cardError, invalidRequest } from "../errors";
import { emit, snapshot } from "../events";
import { paginate } from "../list";
import { requireObject } from "../lookup";
import { listing, retrieving } from "../accepted-params";
import type { Route } from "../router";
import { idOf, timeOn } from "../state";

export const invoiceRoutes: Route[] = [
  // GET /v1/invoices/:id
  {
    method: "GET",
    path: "/v1/invoices/:id",
    stripeParams: "InvoiceRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => requireObject(ctx, "invoice", path.id),
  },
  // POST /v1/invoices/:id
  {
    method: "POST",
    path: "/v1/invoices/:id",
    stripeParams: "InvoiceUpdateParams",
    accepts: ["expand", "metadata", "auto_advance"],
    handler: ({ ctx, params, path }) => {
      const invoice = requireObject(ctx, "invoice", path.id);
      const before = snapshot(invoice);
      const metadata = params.metadata("metadata", invoice.metadata ?? {});
      if (metadata) invoice.metadata = metadata;
      const autoAdvance = params.bool("auto_advance");
      if (autoAdvance !== undefined) invoice.auto_advance = autoAdvance;
      emit(ctx, "invoice.updated", invoice, {
        created: timeOn(ctx, idOf(invoice.test_clock as string | null)),
        before,
      });
      return invoice;
    },
  },
  // GET /v1/invoices
  {
    method: "GET",
    path: "/v1/invoices",
    stripeParams: "InvoiceListParams",
    accepts: listing("customer", "subscription", "status"),
    handler: ({ ctx, params }) => {
      const customer = params.string("customer");
      const subscription = params.string("subscription");
      const status = params.string("status");
      const all = ctx.account.store
        .all("invoice")
        .filter(
          (invoice) =>
            (customer ? invoice.customer === customer : true) &&
            (subscription ? invoice.parent?.subscription_details?.subscription === subscription : true) &&
            (status ? invoice.status === status : true),
        );
      return paginate(all, params, "/v1/invoices");
    },
  },
  // GET /v1/invoices/:id/lines
  {
    method: "GET",
    path: "/v1/invoices/:id/lines",
    stripeParams: "InvoiceListLineItemsParams",
    accepts: listing(),
    handler: ({ ctx, params, path }) => {
      const invoice = requireObject(ctx, "invoice", path.id);
      return paginate([...invoice.lines.data].reverse(), params, `/v1/invoices/${invoice.id}/lines`);
    },
  },
  // POST /v1/invoices/:id/void
  {
    method: "POST",
    path: "/v1/invoices/:id/void",
    stripeParams: "InvoiceVoidInvoiceParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => {
      const invoice = requireObject(ctx, "invoice", path.id);
      if (invoice.status !== "open" && invoice.status !== "uncollectible") {
        throw invalidRequest(
          `You can only void invoices that are open or uncollectible. This invoice is ${invoice.status}.`,
          {
            code: "invoice_not_editable",
          },
        );
      }
      voidInvoice(ctx, invoice);
      return invoice;
    },
  },
  // POST /v1/invoices/:id/pay (charge it now, off-session by default as on Stripe)
  {
    method: "POST",
    path: "/v1/invoices/:id/pay",
    stripeParams: "InvoicePayParams",
    accepts: ["expand", "off_session", "payment_method", "paid_out_of_band"],
    handler: ({ ctx, params, path }) => {
      const invoice = requireObject(ctx, "invoice", path.id);
      if (invoice.status === "paid")
        throw invalidRequest("Invoice is already paid", { code: "invoice_already_paid" });
      if (invoice.status !== "open" && invoice.status !== "uncollectible") {
        throw invalidRequest(`You can only pay open invoices. This invoice is ${invoice.status}.`, {
          code: "invoice_not_editable",
        });
      }
      if (params.bool("paid_out_of_band")) {
        payInvoiceOutOfBand(ctx, invoice);
        return invoice;
      }
      const paymentMethod = params.string("payment_method");
      if (paymentMethod) {
        const owned = ctx.account.store.get("payment_method", paymentMethod);
        if (!owned || idOf(owned.customer as string | null) !== idOf(invoice.customer as string | null)) {
          throw invalidRequest(
            `The PaymentMethod ${paymentMethod} does not belong to the Customer of this invoice. Attach it to the Customer first.`,
            { param: "payment_method", code: "resource_missing" },
          );
        }
      }
      const outcome = collectInvoice(ctx, invoice, {
        offSession: params.bool("off_session") ?? true,
        paymentMethod,
      });
      if (outcome !== "succeeded") {
        const payment = ctx.account.store
          .all("invoice_payment")
          .find((p) => p.invoice === invoice.id && p.is_default);
        const intent = payment
          ? ctx.account.store.get("payment_intent", String(payment.payment.payment_intent))
          : undefined;
        const error = intent?.last_payment_error;
        throw cardError({
          code: error?.code ?? "invoice_payment_intent_requires_action",
          decline_code: error?.decline_code,
          message: error?.message ?? "This invoice requires a payment action to be paid.",
          ...(intent ? { payment_intent: snapshot(intent) } : {}),
        });
      }
      return invoice;
    },
  },
  // POST /v1/invoices/:id/finalize (a draft becomes open; with auto_advance it is charged now)
  {
    method: "POST",
    path: "/v1/invoices/:id/finalize",
    stripeParams: "InvoiceFinalizeInvoiceParams",
    accepts: ["expand", "auto_advance"],
    handler: ({ ctx, params, path }) => {
      const invoice = requireObject(ctx, "invoice", path.id);
      if (invoice.status !== "draft") {
        throw invalidRequest(
          `This invoice is already finalized, you can't re-finalize a non-draft invoice.`,
          {
            code: "invoice_not_editable",
          },
        );
      }
      const autoAdvance = params.bool("auto_advance");
      if (autoAdvance !== undefined) invoice.auto_advance = autoAdvance;
      if (invoice.auto_advance) advanceDraft(ctx, invoice);
      else finalizeInvoice(ctx, invoice);
      return invoice;
    },
  },
  // POST /v1/invoices/:id/mark_uncollectible
  {
    method: "POST",
    path: "/v1/invoices/:id/mark_uncollectible",
    stripeParams: "InvoiceMarkUncollectibleParams",
    accepts: ["expand"],
    handler: ({ ctx, path }) => {
      const invoice = requireObject(ctx, "invoice", path.id);
      if (invoice.status !== "open") {
        throw invalidRequest(
          `You can only mark open invoices as uncollectible. This invoice is ${invoice.status}.`,
          {
            code: "invoice_not_editable",
          },
        );
      }
      markUncollectible(ctx, invoice);
      return invoice;
    },
  },
  // GET /v1/invoice_payments/:id
  {
    method: "GET",
    path: "/v1/invoice_payments/:id",
    stripeParams: "InvoicePaymentRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => requireObject(ctx, "invoice_payment", path.id),
  },
  // GET /v1/invoice_payments
  {
    method: "GET",
    path: "/v1/invoice_payments",
    stripeParams: "InvoicePaymentListParams",
    accepts: listing("invoice", "payment[payment_intent]", "payment[type]"),
    handler: ({ ctx, params }) => {
      const invoice = params.string("invoice");
      const payment = params.object("payment");
      const intent = payment?.string("payment_intent");
      const all = ctx.account.store
        .all("invoice_payment")
        .filter(
          (p) =>
            (invoice ? p.invoice === invoice : true) && (intent ? p.payment.payment_intent === intent : true),
        );
      return paginate(all, params, "/v1/invoice_payments");
    },
  },
];
