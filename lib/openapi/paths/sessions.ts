import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { SessionCreatedSchema } from "@/lib/sessions/session-created-schema";
import { sessionInputSchema } from "@/lib/sessions/session-input";
import {
  ErrorMessageSchema,
  FieldErrorsSchema,
  PaymentMethodNotFoundSchema,
  SubscriptionRequiresSecretKeySchema,
  SubscriptionSetupIncompleteSchema,
  errorResponses,
  idempotencyKeyHeaders,
  idempotentReplayHeaders,
  jsonBody,
  jsonResponse,
  security,
} from "../common";

// The very schema that validates the request, named for the document.
const SessionInput = sessionInputSchema.meta({ id: "SessionInput" });

/** POST /session. */
export function registerSessions(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/session",
    tags: ["Sessions"],
    operationId: "createSession",
    summary: "Create a payment session",
    description:
      "Creates a payment session; send the customer to `checkout_url`. A public key may create one-time sessions from a browser (the client IP is captured); a session with `subscription` needs the secret key. With a forced redirect-based `paymentMethodId` the payment starts now and `redirect_url` (or `payment_error`) is returned.",
    security: security.secretOrPublic,
    request: {
      headers: idempotencyKeyHeaders,
      body: jsonBody(SessionInput),
    },
    responses: {
      201: {
        ...jsonResponse("The session was created.", SessionCreatedSchema),
        headers: idempotentReplayHeaders,
      },
      400: jsonResponse(
        "Invalid fields; a body that is not a JSON object; an unknown or disabled paymentMethodId; a subscription without a usable method; or the provider endpoint's set-up is incomplete.",
        z.union([
          FieldErrorsSchema,
          PaymentMethodNotFoundSchema,
          SubscriptionSetupIncompleteSchema,
          ErrorMessageSchema,
        ]),
      ),
      401: errorResponses.unauthorized,
      403: jsonResponse(
        "A subscription session with a public key.",
        z.union([SubscriptionRequiresSecretKeySchema, ErrorMessageSchema]),
      ),
      409: errorResponses.conflict,
      429: errorResponses.rateLimited,
      502: errorResponses.providerError,
      503: errorResponses.providerUnavailable,
    },
  });
}
