import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { methodFiltersQuerySchema } from "@/lib/payments/list-methods";
import { refundInputSchema, reviewInputSchema } from "@/lib/payments/operation-input";
import {
  BalanceSchema,
  PaymentMethodsSchema,
  PaymentSchema,
  RefundListSchema,
  RefundSchema,
} from "@/lib/payments/payment-schemas";
import { pageSchema } from "@/lib/payouts/payout-input";
import {
  ErrorMessageSchema,
  PaymentNotFoundSchema,
  errorResponses,
  idempotencyKeyHeaders,
  idempotentReplayHeaders,
  jsonBody,
  jsonResponse,
  security,
} from "../common";

const sessionIdParams = z.object({
  session_id: z
    .string()
    .meta({ description: "The session's id (`cs_…`).", example: "cs_01JD8Y3X7Q2W5E9R4T6Y8U0I2O" }),
});
const paymentNotFound = jsonResponse("Unknown session, or another business's.", PaymentNotFoundSchema);

const RefundInput = refundInputSchema.meta({ id: "RefundInput" });
const ReviewInput = reviewInputSchema.meta({ id: "ReviewInput" });
const RefundPage = pageSchema.meta({
  description:
    "A page of refunds: `limit` (1 to 100, default 10) and `starting_after` (a refund id: the refunds created before it).",
});

/** Payments (read), payment methods, balance, and the merchant operations on a payment. */
export function registerPayments(registry: OpenAPIRegistry): void {
  registerPaymentReads(registry);
  registerRefunds(registry);
  registerReview(registry);
}

// GET /payment/{session_id}, /payments/methods and /balance
function registerPaymentReads(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/payment/{session_id}",
    tags: ["Payments"],
    operationId: "getPayment",
    summary: "Get a session's payment",
    description:
      "The Payment object of a session (the interface's fields): its status, amounts, fees once completed, and the payer's details. `404 Payment not found` for an unknown session or another business's.",
    security: security.secret,
    request: { params: sessionIdParams },
    responses: {
      200: jsonResponse("The Payment object.", PaymentSchema),
      401: errorResponses.unauthorized,
      404: paymentNotFound,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/payments/methods",
    tags: ["Payments"],
    operationId: "listPaymentMethods",
    summary: "List the business's payment methods with their fees",
    description:
      "Only methods active for the business with an active provider configuration. Cache the answer 5 to 15 minutes.",
    security: security.secretOrPublic,
    request: { query: methodFiltersQuerySchema },
    responses: {
      200: jsonResponse("The methods, keyed by method id.", PaymentMethodsSchema),
      400: errorResponses.invalidFields,
      401: errorResponses.unauthorized,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/balance",
    tags: ["Payments"],
    operationId: "getBalance",
    summary: "Get the business balance and payout balance",
    description:
      "The business balance and the payout balance, in cents (`{balance, payout_balance}`).",
    security: security.secret,
    responses: {
      200: jsonResponse("Both balances in cents.", BalanceSchema),
      401: errorResponses.unauthorized,
    },
  });
}

// POST /payments/{session_id}/refund and GET its refunds
function registerRefunds(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/payments/{session_id}/refund",
    tags: ["Payments"],
    operationId: "refundPayment",
    summary: "Refund a payment in full or in part",
    description:
      "Refunds a succeeded payment at its provider: the whole remainder without `amount`, or `amount` cents. The business balance is debited the refunded share of the net amount. The answer is the refund as it stands: `succeeded`, `failed`, or `pending` (the provider is retried).",
    security: security.secret,
    request: { params: sessionIdParams, headers: idempotencyKeyHeaders, body: jsonBody(RefundInput, false) },
    responses: {
      201: { ...jsonResponse("The refund.", RefundSchema), headers: idempotentReplayHeaders },
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      404: paymentNotFound,
      409: jsonResponse(
        "Not refundable (not succeeded, already refunded in full), or an Idempotency-Key reused with another body.",
        ErrorMessageSchema,
      ),
      502: errorResponses.providerError,
      503: errorResponses.providerUnavailable,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/payments/{session_id}/refunds",
    tags: ["Payments"],
    operationId: "listRefunds",
    summary: "List a payment's refunds",
    description:
      "The refunds of a session's payment, newest first, with `limit` and `starting_after`; each with its status and amount.",
    security: security.secret,
    request: { params: sessionIdParams, query: RefundPage },
    responses: {
      200: jsonResponse("A page of refunds, newest first.", RefundListSchema),
      400: errorResponses.invalidFields,
      401: errorResponses.unauthorized,
      404: paymentNotFound,
    },
  });
}

// POST /payments/{session_id}/review
function registerReview(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/payments/{session_id}/review",
    tags: ["Payments"],
    operationId: "reviewPayment",
    summary: "Accept or decline a payment held for review",
    description:
      "`accept`: the payment becomes `succeeded`, the business is credited and `succeeded` is sent. `decline`: `declined`, the customer refunded in full, `declined` sent.",
    security: security.secret,
    request: { params: sessionIdParams, headers: idempotencyKeyHeaders, body: jsonBody(ReviewInput) },
    responses: {
      200: {
        ...jsonResponse("The Payment object after the decision.", PaymentSchema),
        headers: idempotentReplayHeaders,
      },
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      404: paymentNotFound,
      409: jsonResponse("The payment is not held for review.", ErrorMessageSchema),
    },
  });
}
