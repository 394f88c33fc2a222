import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { paymentLinkInputSchema } from "@/lib/payment-links/link-input";
import { LinkSessionListSchema, linkSessionsQuerySchema } from "@/lib/payment-links/list-link-sessions";
import { linkListQuerySchema } from "@/lib/payment-links/list-payment-links";
import { PaymentLinkListSchema, PaymentLinkSchema } from "@/lib/payment-links/payment-link-schema";
import {
  ErrorMessageSchema,
  FieldErrorsSchema,
  SubscriptionSetupIncompleteSchema,
  errorResponses,
  idempotencyKeyHeaders,
  idempotentReplayHeaders,
  jsonBody,
  jsonResponse,
  security,
} from "../common";

const idParams = z.object({
  id: z.string().meta({ description: "Prefix `plink_`.", example: "plink_01JD8Y3X7Q2W5E9R4T6Y8U0I2O" }),
});
const notFound = jsonResponse(
  "`payment_link_not_found`: unknown, or another business's.",
  ErrorMessageSchema,
);
const Input = paymentLinkInputSchema.meta({ id: "PaymentLinkInput" });
const ListQuery = linkListQuerySchema.meta({ description: "Paging of GET /payment-links." });

/** Payment links (secret key only; decision 0049). */
export function registerPaymentLinks(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/payment-links",
    tags: ["Payment links"],
    operationId: "listPaymentLinks",
    summary: "List payment links",
    description: "Oldest first, `limit` per page (1 to 100, default 10) after the `starting_after` id.",
    security: security.secret,
    request: { query: ListQuery },
    responses: {
      200: jsonResponse("A page of payment links.", PaymentLinkListSchema),
      400: errorResponses.invalidFields,
      401: errorResponses.unauthorized,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/payment-links",
    tags: ["Payment links"],
    operationId: "createPaymentLink",
    summary: "Create a reusable payment link",
    description:
      "Items and amount (checked as POST /session checks them), or a plan with `subscription`. Each visit of `url` answers 303 to a new session's checkout, with the link's items, metadata and plan, and the order id `{order_prefix}-{n}`. A plan cannot have `adjustable_quantity`.",
    security: security.secret,
    request: { headers: idempotencyKeyHeaders, body: jsonBody(Input) },
    responses: {
      201: { ...jsonResponse("The link was created.", PaymentLinkSchema), headers: idempotentReplayHeaders },
      400: jsonResponse(
        "Invalid fields (every one named); a body that is not a JSON object; a plan without a usable method or with an incomplete provider set-up.",
        z.union([FieldErrorsSchema, SubscriptionSetupIncompleteSchema, ErrorMessageSchema]),
      ),
      401: errorResponses.unauthorized,
      409: errorResponses.conflict,
      502: errorResponses.providerError,
      503: errorResponses.providerUnavailable,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/payment-links/{id}",
    tags: ["Payment links"],
    operationId: "getPaymentLink",
    summary: "Get a payment link",
    description: "One payment link of the business: its URL, items or plan, limits, uses and state.",
    security: security.secret,
    request: { params: idParams },
    responses: {
      200: jsonResponse("The PaymentLink object.", PaymentLinkSchema),
      401: errorResponses.unauthorized,
      404: notFound,
    },
  });

  registerLinkSessions(registry);

  for (const [verb, summary] of [
    ["deactivate", "Deactivate a payment link (its URL shows a page saying so)"],
    ["activate", "Reactivate a payment link"],
  ] as const) {
    registry.registerPath({
      method: "post",
      path: `/payment-links/{id}/${verb}`,
      tags: ["Payment links"],
      operationId: `${verb}PaymentLink`,
      summary,
      description: "Already in that state: 200, nothing changes. Sessions already made are not touched.",
      security: security.secret,
      request: { params: idParams, headers: idempotencyKeyHeaders },
      responses: {
        200: {
          ...jsonResponse("The updated PaymentLink.", PaymentLinkSchema),
          headers: idempotentReplayHeaders,
        },
        400: errorResponses.badRequest,
        401: errorResponses.unauthorized,
        404: notFound,
        409: errorResponses.conflict,
      },
    });
  }
}

// GET /payment-links/{id}/sessions
function registerLinkSessions(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/payment-links/{id}/sessions",
    tags: ["Payment links"],
    operationId: "listPaymentLinkSessions",
    summary: "List the sessions a payment link made, with their payments",
    description:
      "Oldest first, `limit` per page (1 to 100, default 10) after the `starting_after` session id; each as GET /payment/{session_id} answers it.",
    security: security.secret,
    request: { params: idParams, query: linkSessionsQuerySchema.meta({ description: "Paging." }) },
    responses: {
      200: jsonResponse("A page of the link's sessions.", LinkSessionListSchema),
      400: errorResponses.invalidFields,
      401: errorResponses.unauthorized,
      404: notFound,
    },
  });
}
