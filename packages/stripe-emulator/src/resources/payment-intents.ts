import { invalidRequest } from "../errors";
import { paginate } from "../list";
import { requireCustomer, requireObject } from "../lookup";
import { cancelIntent, captureIntent, createIntent, customerId, requireIntentStatus } from "../payments";
import { listing, retrieving } from "../accepted-params";
import type { Route } from "../router";
import { paymentMethodFromReference } from "./payment-methods";
import { readCurrency } from "./products";
import {
  confirmFromApi,
  readAmount,
  readOffSession,
  readPaymentMethod,
  readPaymentMethodTypes,
  readSetupFutureUsage,
  returnUrlMessage,
} from "./payment-intent-params";

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
