import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { listQuerySchema } from "@/lib/subscriptions/list-subscriptions";
import { cancelInputSchema, resumeInputSchema } from "@/lib/subscriptions/subscription-input";
import { SubscriptionListSchema, SubscriptionSchema } from "@/lib/subscriptions/subscription-schema";
import {
  ErrorMessageSchema,
  errorResponses,
  idempotencyKeyHeaders,
  idempotentReplayHeaders,
  jsonBody,
  jsonResponse,
  security,
} from "../common";

const subscriptionIdParams = z.object({
  subscription_id: z
    .string()
    .meta({ description: "Prefix `psub_`.", example: "psub_01JD8Y3X7Q2W5E9R4T6Y8U0I2O" }),
});
const notFound = jsonResponse(
  "`subscription_not_found`: unknown, or another business's.",
  ErrorMessageSchema,
);
const updateFailed = {
  409: jsonResponse(
    "`subscription_update_failed`: already canceled, or the subscription changed during the request (retry); or `idempotency_key_reused` (the Idempotency-Key was used with another request), `idempotency_key_in_use` (a request with it is still running).",
    ErrorMessageSchema,
  ),
  502: jsonResponse("`subscription_update_failed`: the provider refused.", ErrorMessageSchema),
  503: jsonResponse(
    "`subscription_update_failed`: the provider is unreachable; safe to retry.",
    ErrorMessageSchema,
  ),
};

const ListQuery = listQuerySchema.meta({ description: "Filters and paging of GET /subscriptions." });
const CancelInput = cancelInputSchema.meta({ id: "CancelSubscriptionInput" });
const ResumeInput = resumeInputSchema.meta({ id: "ResumeSubscriptionInput" });

/** The recurring plans' endpoints (secret key only). */
export function registerSubscriptions(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/subscriptions",
    tags: ["Subscriptions"],
    operationId: "listSubscriptions",
    summary: "List subscriptions",
    description:
      "Oldest first, `limit` per page (1 to 100, default 10) after the `starting_after` id. `status=canceling`: active or past due with a cancellation scheduled.",
    security: security.secret,
    request: { query: ListQuery },
    responses: {
      200: jsonResponse("A page of subscriptions.", SubscriptionListSchema),
      400: errorResponses.invalidFields,
      401: errorResponses.unauthorized,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/subscriptions/{subscription_id}",
    tags: ["Subscriptions"],
    operationId: "getSubscription",
    summary: "Get a subscription",
    description:
      "The Subscription object: status, period, cancellation fields and management URL. `404 subscription_not_found` for an unknown id or another business's.",
    security: security.secret,
    request: { params: subscriptionIdParams },
    responses: {
      200: jsonResponse("The Subscription object.", SubscriptionSchema),
      401: errorResponses.unauthorized,
      404: notFound,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/subscriptions/{subscription_id}/cancel",
    tags: ["Subscriptions"],
    operationId: "cancelSubscription",
    summary: "Cancel a subscription, at period end (default) or now",
    description:
      "Works on `active` or `past_due` subscriptions. With true on an already scheduled subscription: 200, nothing changes. No refund either way.",
    security: security.secret,
    request: { params: subscriptionIdParams, headers: idempotencyKeyHeaders, body: jsonBody(CancelInput, false) },
    responses: {
      200: { ...jsonResponse("The updated Subscription.", SubscriptionSchema), headers: idempotentReplayHeaders },
      400: jsonResponse(
        "`{at_period_end: [message]}` for a non-boolean, or `{error, message}` for a body that is not a JSON object.",
        z.union([errorFieldMapOf("at_period_end"), ErrorMessageSchema]),
      ),
      401: errorResponses.unauthorized,
      404: notFound,
      ...updateFailed,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/subscriptions/{subscription_id}/resume",
    tags: ["Subscriptions"],
    operationId: "resumeSubscription",
    summary: "Undo a cancellation scheduled by the business",
    description:
      "Only a cancellation scheduled by `api`, `manager` (or from the provider dashboard) can be undone here; one scheduled by the customer (`payer`), `admin` or `system` is a 403.",
    security: security.secret,
    request: { params: subscriptionIdParams, headers: idempotencyKeyHeaders, body: jsonBody(ResumeInput, false) },
    responses: {
      200: { ...jsonResponse("The updated Subscription.", SubscriptionSchema), headers: idempotentReplayHeaders },
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      403: jsonResponse(
        "Scheduled by the customer, admin or system: not the business's to undo.",
        ErrorMessageSchema,
      ),
      404: notFound,
      ...updateFailed,
    },
  });
}

/** `{<field>: [messages]}` naming exactly one field. */
function errorFieldMapOf(field: string) {
  return z.strictObject({ [field]: z.array(z.string()).min(1) });
}
