import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { advanceSandboxClockSchema, SandboxClockAdvancedSchema } from "@/lib/businesses/sandbox-clock-schemas";
import { sandboxCreditSchema } from "@/lib/ledger/credit-sandbox-payout-balance";
import { BalanceSchema, PaymentSchema } from "@/lib/payments/payment-schemas";
import { sandboxPaySchema } from "@/lib/payments/sandbox-pay";
import {
  ErrorMessageSchema,
  FieldErrorsSchema,
  PaymentMethodNotFoundSchema,
  PaymentNotFoundSchema,
  UnauthorizedSchema,
  errorResponses,
  idempotencyKeyHeaders,
  idempotentReplayHeaders,
  jsonBody,
  jsonResponse,
  security,
} from "../common";

const tag = "Sandbox helpers";
const sandboxOnly =
  "Sandbox businesses only: a live business's secret key gets the uniform 401, as if the endpoint did not exist for it.";
const sandboxUnauthorized = jsonResponse(
  "Missing or invalid key, a public key, or a live business's key.",
  UnauthorizedSchema,
);

const keyConflict = jsonResponse(
  "The Idempotency-Key was used with another request (`idempotency_key_reused`), or one with it is still running (`idempotency_key_in_use`).",
  ErrorMessageSchema,
);

/** The sandbox helpers (secret key of a sandbox business): test money, time and payments without a browser. */
export function registerSandboxHelpers(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/sandbox/payout-balance",
    tags: [tag],
    operationId: "creditSandboxPayoutBalance",
    summary: "Add test money to the payout balance",
    description: `Credits the payout balance, as if funds were paid in from outside, so payouts can be tried. ${sandboxOnly}`,
    security: security.secret,
    request: {
      headers: idempotencyKeyHeaders,
      body: jsonBody(sandboxCreditSchema.meta({ id: "SandboxPayoutBalanceInput" })),
    },
    responses: {
      200: {
        ...jsonResponse("Both balances after the credit.", BalanceSchema),
        headers: idempotentReplayHeaders,
      },
      400: errorResponses.badRequest,
      401: sandboxUnauthorized,
      409: keyConflict,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/sandbox/clock/advance",
    tags: [tag],
    operationId: "advanceSandboxClock",
    summary: "Move the business's clock forward",
    description: `Session expiry, webhook retries and subscription renewals follow the business's clock; jobs that come due run before the answer. When the business's Stripe test clock cannot move, nothing moves: 502 \`provider_error\`, retry. ${sandboxOnly}`,
    security: security.secret,
    request: {
      headers: idempotencyKeyHeaders,
      body: jsonBody(advanceSandboxClockSchema.meta({ id: "SandboxClockAdvanceInput" })),
    },
    responses: {
      200: { ...jsonResponse("The business's time now.", SandboxClockAdvancedSchema), headers: idempotentReplayHeaders },
      400: errorResponses.badRequest,
      401: sandboxUnauthorized,
      409: keyConflict,
      502: errorResponses.providerError,
      503: jsonResponse(
        "The clock moved, but work due by the new time was still running after 120 s (`clock_work_pending`); the message names it, and it finishes in the background.",
        ErrorMessageSchema,
        { "Retry-After": { description: "Seconds to wait before reading again.", schema: { type: "integer" } } },
      ),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/sandbox/sessions/{session_id}/pay",
    tags: [tag],
    operationId: "paySandboxSession",
    summary: "Pay a session as the hosted page would",
    description: `The same payment path as the hosted page (IP validation, fraud screening, provider calls). Card methods take a test card (default 4242…, which succeeds) and complete the first 3-D Secure challenge; redirect methods drive the sandbox provider: \`paid\` (default), \`underpaid\` (\`amount_paid\`, default half) or \`failed\`. ${sandboxOnly}`,
    security: security.secret,
    request: {
      params: z.object({ session_id: z.string().meta({ description: "The session's id (`cs_…`)." }) }),
      headers: idempotencyKeyHeaders,
      body: jsonBody(sandboxPaySchema.meta({ id: "SandboxPayInput" }), false),
    },
    responses: {
      200: { ...jsonResponse("The Payment object after the attempt.", PaymentSchema), headers: idempotentReplayHeaders },
      400: jsonResponse(
        "Invalid fields, a body that is not a JSON object, or a payment method the business does not offer.",
        z.union([FieldErrorsSchema, PaymentMethodNotFoundSchema, ErrorMessageSchema]),
      ),
      401: sandboxUnauthorized,
      403: jsonResponse("The session was created for another IP (`ip_mismatch`).", ErrorMessageSchema),
      404: jsonResponse("Unknown session, or another business's.", PaymentNotFoundSchema),
      409: jsonResponse(
        "The session cannot be paid now (`session_not_payable`): paid, expired, in review or in flight; or the Idempotency-Key was used with another request (`idempotency_key_reused`), or one with it is still running (`idempotency_key_in_use`).",
        ErrorMessageSchema,
      ),
      502: errorResponses.providerError,
      503: errorResponses.providerUnavailable,
    },
  });
}
