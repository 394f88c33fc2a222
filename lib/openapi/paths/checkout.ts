import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { CheckoutPayResultSchema, CheckoutStatusSchema } from "@/lib/checkout/checkout-schemas";
import { payRequestSchema } from "@/lib/checkout/pay-request";
import {
  ErrorMessageSchema,
  FieldErrorsSchema,
  PaymentMethodNotFoundSchema,
  errorResponses,
  idempotencyKeyHeaders,
  idempotentReplayHeaders,
  jsonBody,
  jsonResponse,
  security,
} from "../common";

const sessionIdParams = z.object({
  session_id: z.string().meta({ description: "The session's id (`cs_…`)." }),
});
const notFound = jsonResponse("`session_not_found`: no such payment session.", ErrorMessageSchema);
const PayRequest = payRequestSchema.meta({ id: "CheckoutPayRequest" });

/**
 * The hosted checkout page's own endpoints: no key, the session id is the capability (as in the
 * page's URL). Documented for completeness; merchants do not call them.
 */
export function registerCheckout(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/checkout/sessions/{session_id}",
    tags: ["Hosted checkout page"],
    operationId: "getCheckoutStatus",
    "x-internal": true,
    summary: "The session's live state (the hosted page polls it)",
    description:
      "What the hosted page shows of the session while the payer is on it: nothing secret. Used by the page only.",
    security: security.none,
    request: { params: sessionIdParams },
    responses: {
      200: jsonResponse("What the page shows: nothing secret.", CheckoutStatusSchema),
      404: notFound,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/checkout/sessions/{session_id}/pay",
    tags: ["Hosted checkout page"],
    operationId: "payCheckoutSession",
    "x-internal": true,
    summary: "Pay the session with the method the customer chose",
    description:
      "Sent by the hosted page only, as `application/json` (a cross-site request is refused). The answer tells the page where to go next, if anywhere.",
    security: security.none,
    request: { params: sessionIdParams, headers: idempotencyKeyHeaders, body: jsonBody(PayRequest) },
    responses: {
      200: { ...jsonResponse("The attempt's outcome.", CheckoutPayResultSchema), headers: idempotentReplayHeaders },
      400: jsonResponse(
        "Invalid fields, a body that is not JSON (or not sent as application/json), or an unknown method.",
        z.union([FieldErrorsSchema, PaymentMethodNotFoundSchema, ErrorMessageSchema]),
      ),
      403: jsonResponse(
        "`cross_site_request`, or `ip_mismatch`: the payer's IP is not the session's.",
        ErrorMessageSchema,
      ),
      404: notFound,
      409: jsonResponse(
        "`session_not_payable`: paid, expired, in review, declined, or an attempt in flight; `idempotency_key_reused` or `idempotency_key_in_use` for an Idempotency-Key used with another request or still running.",
        ErrorMessageSchema,
      ),
      502: errorResponses.providerError,
      503: errorResponses.providerUnavailable,
    },
  });
}
