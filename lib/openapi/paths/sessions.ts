import type { OpenAPIRegistry, ResponseConfig } from "@asteasolutions/zod-to-openapi";
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

  registry.registerPath({
    method: "get",
    path: "/payment/{session_id}/redirect",
    tags: ["Sessions"],
    operationId: "payerRedirect",
    "x-internal": true,
    summary: "The payer's hop to the provider's page",
    description:
      "Kassa's addition; merchants never call it. POST /session answers it as `redirect_url` when a secret-key session with `ip` starts a forced redirect method at creation: the payer's browser comes here first, Kassa checks the payer's IP against `ip`, then redirects to the provider's page (or to the checkout page once the payment is over). Another IP gets a 403 page and never sees the provider's page.",
    security: security.none,
    request: {
      params: z.object({ session_id: z.string().meta({ description: "The session's id (`cs_…`)." }) }),
    },
    responses: {
      303: {
        description: "To the provider's page of the payment in progress, or to the session's checkout page.",
        headers: { Location: { description: "Where the browser goes next.", schema: { type: "string" } } },
      },
      403: htmlPage(
        "The payer's IP is not the session's `ip`: a page saying the payment cannot be made from here.",
      ),
      404: htmlPage("No such session."),
    },
  });
}

function htmlPage(description: string): ResponseConfig {
  return {
    description,
    content: { "text/html": { schema: z.string().meta({ description: "An HTML page." }) } },
  };
}
