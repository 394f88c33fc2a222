import type Stripe from "stripe";
import { settleInvoiceOfIntent } from "../billing";
import { invalidRequest } from "../errors";
import { defaultApiVersion } from "../events";
import type { Params } from "../form";
import { paginate } from "../list";
import { requireCustomer, requireObject } from "../lookup";
import {
  cancelIntent,
  captureIntent,
  confirmIntent,
  createIntent,
  customerId,
  requireIntentStatus,
} from "../payments";
import { listing, retrieving } from "../accepted-params";
import type { Route } from "../router";
import type { Ctx } from "../state";
import { paymentMethodFromParams, paymentMethodFromReference } from "./payment-methods";
import { readCurrency } from "./products";

const returnUrlMessage =
  "This PaymentIntent is configured to accept payment methods enabled in your Dashboard. Because some of these payment methods might redirect your customer off of your page, you must provide a `return_url`. If you don't want to accept redirect-based payment methods, set `automatic_payment_methods[enabled]` to `true` and `automatic_payment_methods[allow_redirects]` to `never` when creating Setup Intents and Payment Intents.";

/** `off_session` is a boolean or `one_off` / `recurring`; any of the latter two means true. */
function readOffSession(params: Params): boolean {
  const value = params.string("off_session");
  if (value === undefined) return false;
  if (value === "one_off" || value === "recurring") return true;
  return params.bool("off_session") ?? false;
}

function readSetupFutureUsage(params: Params): "on_session" | "off_session" | null | undefined {
  if (params.raw.setup_future_usage === "") return null;
  return params.oneOf("setup_future_usage", ["on_session", "off_session"] as const);
}

function readAmount(params: Params, currency: string, required: boolean): number | undefined {
  const amount = params.int("amount", { required, min: 1, max: 99_999_999 });
  if (amount !== undefined && currency === "usd" && amount < 50) {
    throw invalidRequest("Amount must be at least $0.50 usd", { param: "amount", code: "amount_too_small" });
  }
  return amount;
}

/**
 * Confirms as the API does: remembers `return_url`, insists on one when redirect-capable
 * automatic payment methods are on (as Stripe does), and answers a decline with 402.
 */
function confirmFromApi(
  ctx: Ctx,
  intent: Stripe.PaymentIntent,
  {
    offSession,
    returnUrl,
    errorOnRequiresAction,
  }: { offSession: boolean; returnUrl?: string; errorOnRequiresAction: boolean },
): void {
  if (returnUrl) ctx.account.returnUrls.set(intent.id, returnUrl);
  const automatic = intent.automatic_payment_methods;
  if (automatic?.enabled && automatic.allow_redirects !== "never" && !ctx.account.returnUrls.has(intent.id)) {
    throw invalidRequest(returnUrlMessage, { param: "return_url" });
  }
  const result = confirmIntent(ctx, intent, { offSession, errorOnRequiresAction });
  settleInvoiceOfIntent(ctx, intent);
  if (result.outcome === "failed") throw result.error;
}

/** `payment_method` (an id or a test token) or `payment_method_data` (a card to create). */
function readPaymentMethod(ctx: Ctx, params: Params): string | null {
  const reference = params.string("payment_method");
  if (reference) return paymentMethodFromReference(ctx, reference).id;
  const data = params.object("payment_method_data");
  return data ? paymentMethodFromParams(ctx, data).id : null;
}

/**
 * Which payment methods the PaymentIntent allows. Since 2026-08-26 Stripe refuses the old
 * `payment_method_types` parameter; `allowed_payment_method_types` replaces it and excludes
 * `automatic_payment_methods`. Without either, dynamic payment methods (redirects allowed) apply.
 */
function readPaymentMethodTypes(ctx: Ctx, params: Params) {
  const legacy = params.strings("payment_method_types");
  const version = (ctx.apiVersion ?? defaultApiVersion).slice(0, 10);
  if (legacy !== undefined && version >= "2026-08-26") {
    throw invalidRequest(
      "The `payment_method_types` parameter is no longer supported on this API version. Use `allowed_payment_method_types`, `excluded_payment_method_types` or dynamic payment methods instead.",
      { param: "payment_method_types", code: "payment_method_types_no_longer_supported" },
    );
  }
  const allowed = params.strings("allowed_payment_method_types");
  if (allowed && (params.has("automatic_payment_methods") || params.has("excluded_payment_method_types"))) {
    throw invalidRequest(
      "allowed_payment_method_types cannot be used together with automatic_payment_methods or excluded_payment_method_types.",
      { param: "allowed_payment_method_types" },
    );
  }
  const explicit = allowed ?? legacy;
  if (explicit && !explicit.includes("card")) {
    throw invalidRequest("The Stripe emulator supports only the 'card' payment method type.", {
      param: allowed ? "allowed_payment_method_types" : "payment_method_types",
    });
  }
  const automaticParams = params.object("automatic_payment_methods");
  const automatic = explicit
    ? null
    : {
        enabled: automaticParams?.bool("enabled") ?? true,
        allow_redirects: automaticParams?.oneOf("allow_redirects", ["always", "never"] as const) ?? "always",
      };
  return { automatic, allowed: allowed ?? null };
}

export const paymentIntentRoutes: Route[] = [
  // POST /v1/payment_intents
  {
    method: "POST",
    path: "/v1/payment_intents",
    stripeParams: "PaymentIntentCreateParams",
    accepts: [
      "expand",
      "amount",
      "currency",
      "customer",
      "payment_method",
      "payment_method_data[type]",
      "payment_method_data[metadata]",
      "payment_method_data[billing_details][address][city]",
      "payment_method_data[billing_details][address][country]",
      "payment_method_data[billing_details][address][line1]",
      "payment_method_data[billing_details][address][line2]",
      "payment_method_data[billing_details][address][postal_code]",
      "payment_method_data[billing_details][address][state]",
      "payment_method_data[billing_details][email]",
      "payment_method_data[billing_details][name]",
      "payment_method_data[billing_details][phone]",
      "confirm",
      "off_session",
      "setup_future_usage",
      "capture_method",
      "allowed_payment_method_types",
      "automatic_payment_methods[enabled]",
      "automatic_payment_methods[allow_redirects]",
      "payment_method_types",
      "excluded_payment_method_types",
      "return_url",
      "error_on_requires_action",
      "metadata",
      "description",
      "receipt_email",
    ],
    handler: ({ ctx, params }) => {
      const currency = readCurrency(params);
      const amount = readAmount(params, currency, true) ?? 0;
      const customer = params.string("customer");
      if (customer) requireCustomer(ctx, customer, "customer");
      const { automatic, allowed } = readPaymentMethodTypes(ctx, params);
      const confirm = params.bool("confirm") ?? false;
      const returnUrl = params.string("return_url");
      if (confirm && automatic?.enabled && automatic.allow_redirects !== "never" && !returnUrl) {
        throw invalidRequest(returnUrlMessage, { param: "return_url" });
      }
      const intent = createIntent(ctx, {
        amount,
        currency,
        customer: customer ?? null,
        paymentMethod: readPaymentMethod(ctx, params),
        description: params.string("description") ?? null,
        metadata: params.metadata("metadata") ?? {},
        setupFutureUsage: readSetupFutureUsage(params) ?? null,
        captureMethod:
          params.oneOf("capture_method", ["automatic", "automatic_async", "manual"] as const) ??
          "automatic_async",
        automaticPaymentMethods: automatic,
        allowedPaymentMethodTypes: allowed,
        paymentMethodTypes: ["card"],
        receiptEmail: params.string("receipt_email") ?? null,
      });
      if (confirm) {
        confirmFromApi(ctx, intent, {
          offSession: readOffSession(params),
          returnUrl,
          errorOnRequiresAction: params.bool("error_on_requires_action") ?? false,
        });
      }
      return intent;
    },
  },
  // GET /v1/payment_intents/:id
  {
    method: "GET",
    path: "/v1/payment_intents/:id",
    stripeParams: "PaymentIntentRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => requireObject(ctx, "payment_intent", path.id),
  },
  // POST /v1/payment_intents/:id
  {
    method: "POST",
    path: "/v1/payment_intents/:id",
    stripeParams: "PaymentIntentUpdateParams",
    accepts: [
      "expand",
      "amount",
      "currency",
      "customer",
      "payment_method",
      "setup_future_usage",
      "description",
      "receipt_email",
      "metadata",
    ],
    handler: ({ ctx, params, path }) => {
      const intent = requireObject(ctx, "payment_intent", path.id);
      const changesPayment = [
        "amount",
        "currency",
        "payment_method",
        "customer",
        "setup_future_usage",
        "capture_method",
      ].some((key) => params.has(key));
      if (changesPayment) {
        requireIntentStatus(
          intent,
          ["requires_payment_method", "requires_confirmation", "requires_action"],
          ["update", "updated"],
        );
      }
      if (params.has("currency")) intent.currency = readCurrency(params);
      const amount = readAmount(params, intent.currency, false);
      if (amount !== undefined) intent.amount = amount;
      const customer = params.string("customer");
      if (customer) intent.customer = requireCustomer(ctx, customer, "customer").id;
      const paymentMethod = params.string("payment_method");
      if (paymentMethod) {
        intent.payment_method = paymentMethodFromReference(ctx, paymentMethod).id;
        intent.status = "requires_confirmation";
      }
      const setupFutureUsage = readSetupFutureUsage(params);
      if (setupFutureUsage !== undefined) intent.setup_future_usage = setupFutureUsage;
      const description = params.nullableString("description");
      if (description !== undefined) intent.description = description;
      const receiptEmail = params.nullableString("receipt_email");
      if (receiptEmail !== undefined) intent.receipt_email = receiptEmail;
      const metadata = params.metadata("metadata", intent.metadata);
      if (metadata) intent.metadata = metadata;
      return intent;
    },
  },
  // POST /v1/payment_intents/:id/confirm
  {
    method: "POST",
    path: "/v1/payment_intents/:id/confirm",
    stripeParams: "PaymentIntentConfirmParams",
    accepts: [
      "expand",
      "payment_method",
      "payment_method_data[type]",
      "payment_method_data[metadata]",
      "payment_method_data[billing_details][address][city]",
      "payment_method_data[billing_details][address][country]",
      "payment_method_data[billing_details][address][line1]",
      "payment_method_data[billing_details][address][line2]",
      "payment_method_data[billing_details][address][postal_code]",
      "payment_method_data[billing_details][address][state]",
      "payment_method_data[billing_details][email]",
      "payment_method_data[billing_details][name]",
      "payment_method_data[billing_details][phone]",
      "setup_future_usage",
      "receipt_email",
      "off_session",
      "return_url",
      "error_on_requires_action",
    ],
    handler: ({ ctx, params, path }) => {
      const intent = requireObject(ctx, "payment_intent", path.id);
      if (intent.status === "succeeded") {
        throw invalidRequest(
          "You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.",
          { code: "payment_intent_unexpected_state" },
        );
      }
      requireIntentStatus(
        intent,
        ["requires_payment_method", "requires_confirmation", "requires_action"],
        ["confirm", "confirmed"],
      );
      const paymentMethod = readPaymentMethod(ctx, params);
      if (paymentMethod) intent.payment_method = paymentMethod;
      const setupFutureUsage = readSetupFutureUsage(params);
      if (setupFutureUsage !== undefined) intent.setup_future_usage = setupFutureUsage;
      const receiptEmail = params.string("receipt_email");
      if (receiptEmail) intent.receipt_email = receiptEmail;
      confirmFromApi(ctx, intent, {
        offSession: readOffSession(params),
        returnUrl: params.string("return_url"),
        errorOnRequiresAction: params.bool("error_on_requires_action") ?? false,
      });
      return intent;
    },
  },
  // POST /v1/payment_intents/:id/capture
  {
    method: "POST",
    path: "/v1/payment_intents/:id/capture",
    stripeParams: "PaymentIntentCaptureParams",
    accepts: ["expand", "amount_to_capture"],
    handler: ({ ctx, params, path }) => {
      const intent = requireObject(ctx, "payment_intent", path.id);
      captureIntent(ctx, intent, params.int("amount_to_capture", { min: 1 }));
      return intent;
    },
  },
  // POST /v1/payment_intents/:id/cancel
  {
    method: "POST",
    path: "/v1/payment_intents/:id/cancel",
    stripeParams: "PaymentIntentCancelParams",
    accepts: ["expand", "cancellation_reason"],
    handler: ({ ctx, params, path }) => {
      const intent = requireObject(ctx, "payment_intent", path.id);
      if (ctx.account.invoiceByPaymentIntent.has(intent.id)) {
        throw invalidRequest(
          "You cannot cancel this PaymentIntent because it was created by an invoice. Void the invoice instead.",
          { code: "payment_intent_unexpected_state" },
        );
      }
      const reason = params.oneOf("cancellation_reason", [
        "duplicate",
        "fraudulent",
        "requested_by_customer",
        "abandoned",
      ] as const);
      cancelIntent(ctx, intent, reason ?? null);
      return intent;
    },
  },
  // GET /v1/payment_intents
  {
    method: "GET",
    path: "/v1/payment_intents",
    stripeParams: "PaymentIntentListParams",
    accepts: listing("customer"),
    handler: ({ ctx, params }) => {
      const customer = params.string("customer");
      const all = ctx.account.store
        .all("payment_intent")
        .filter((intent) => (customer ? customerId(intent) === customer : true));
      return paginate(all, params, "/v1/payment_intents");
    },
  },
];
