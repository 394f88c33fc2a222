import type { OpenAPIRegistry, ResponseConfig } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { resendFailedSchema, rotateWebhookTokenSchema } from "@/lib/webhooks/webhook-request-schemas";
import { webhookEventListQuerySchema } from "@/lib/webhooks/list-webhook-events";
import { testWebhookSchema } from "@/lib/webhooks/send-test-webhook-event";
import { webhookEndpointUpdateSchema } from "@/lib/webhooks/webhook-endpoint";
import { resumeWebhookEndpointSchema } from "@/lib/webhooks/pause-webhook-endpoint";
import {
  ResendFailedResultSchema,
  RotatedWebhookTokenSchema,
  WebhookEndpointSchema,
  WebhookEventListSchema,
  WebhookEventSchema,
  WebhookTokenSchema,
} from "@/lib/webhooks/webhook-schemas";
import {
  ErrorMessageSchema,
  errorResponses,
  idempotencyKeyHeaders,
  idempotentReplayHeaders,
  jsonBody,
  jsonResponse,
  security,
} from "../common";

const tag = "Webhook operations";

const eventParams = z.object({
  event_id: z.string().meta({ description: "The event's id (`evt_…`)." }),
});
const eventNotFound = jsonResponse(
  "No such event of the business (`webhook_event_not_found`).",
  ErrorMessageSchema,
);

const ok = (description: string, schema: z.ZodType): ResponseConfig => ({
  ...jsonResponse(description, schema),
  headers: idempotentReplayHeaders,
});
const idempotencyConflict = jsonResponse(
  "The Idempotency-Key was used with another request (`idempotency_key_reused`).",
  ErrorMessageSchema,
);
const noUrlConflict = jsonResponse(
  "No webhook URL is set (`webhook_url_not_set`), or the Idempotency-Key was used with another request (`idempotency_key_reused`).",
  ErrorMessageSchema,
);

/** The merchant's webhook operations (secret key): endpoint, delivery log, resends, test event, token. */
export function registerWebhookOperations(registry: OpenAPIRegistry): void {
  registerWebhookEndpoint(registry);
  registerWebhookEndpointState(registry);
  registerWebhookEventList(registry);
  registerWebhookEvent(registry);
  registerWebhookTest(registry);
  registerWebhookToken(registry);
}

// GET and POST /webhooks/endpoint
function registerWebhookEndpoint(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/webhooks/endpoint",
    tags: [tag],
    operationId: "getWebhookEndpoint",
    summary: "Where webhooks go and which kinds are sent",
    description:
      "The business's webhook URL, the event kinds sent, and the endpoint's health (failing, disabled, held events).",
    security: security.secret,
    responses: {
      200: jsonResponse("The endpoint.", WebhookEndpointSchema),
      401: errorResponses.unauthorized,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/webhooks/endpoint",
    tags: [tag],
    operationId: "updateWebhookEndpoint",
    summary: "Change the webhook URL and/or the kinds sent",
    description:
      "`url`: http(s), no literal private address; null or empty stops sending (later events are recorded as skipped). `events`: kinds of the interface (unknown ones are a 400). A field left out keeps its value; pending events go to the new URL at their next attempt.",
    security: security.secret,
    request: {
      headers: idempotencyKeyHeaders,
      body: jsonBody(webhookEndpointUpdateSchema.meta({ id: "WebhookEndpointUpdate" })),
    },
    responses: {
      200: ok("The endpoint as it now is.", WebhookEndpointSchema),
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      409: idempotencyConflict,
    },
  });
}

// POST /webhooks/endpoint/pause and …/resume
function registerWebhookEndpointState(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/webhooks/endpoint/pause",
    tags: [tag],
    operationId: "pauseWebhookEndpoint",
    summary: "Pause the webhook endpoint",
    description:
      "Stops sending: events are held (kept, not attempted; an event mid-retry keeps its remaining attempts) until the endpoint is resumed.",
    security: security.secret,
    request: { headers: idempotencyKeyHeaders, body: jsonBody(z.object({}), false) },
    responses: {
      200: ok("The endpoint, `paused`.", WebhookEndpointSchema),
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      409: jsonResponse(
        "Already paused (`webhook_endpoint_paused`), disabled (`webhook_endpoint_disabled`: resume it instead), or the Idempotency-Key was used with another request (`idempotency_key_reused`).",
        ErrorMessageSchema,
      ),
    },
  });

  registry.registerPath({
    method: "post",
    path: "/webhooks/endpoint/resume",
    tags: [tag],
    operationId: "resumeWebhookEndpoint",
    summary: "Resume a paused endpoint, or re-enable a disabled one",
    description:
      "The endpoint is `active` again and its failing streak starts afresh. With `resend_held` (default true) every held event is sent, oldest first, one per `WEBHOOK_HELD_RESEND_SPACING_MS` (1 s by default) on the business's clock; with false, held events are marked `failed` (each can be resent later).",
    security: security.secret,
    request: {
      headers: idempotencyKeyHeaders,
      body: jsonBody(resumeWebhookEndpointSchema.meta({ id: "WebhookEndpointResumeInput" }), false),
    },
    responses: {
      200: ok(
        "The endpoint, `active`, with how many held events were resent or marked failed.",
        WebhookEndpointSchema.extend({
          resent: z.int().min(0).meta({ description: "Held events sent again." }),
          released: z.int().min(0).meta({ description: "Held events marked failed (resend_held: false)." }),
        }).meta({ id: "WebhookEndpointResumed" }),
      ),
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      409: jsonResponse(
        "Already active (`webhook_endpoint_active`), no URL to resend to (`webhook_url_not_set`), or the Idempotency-Key was used with another request (`idempotency_key_reused`).",
        ErrorMessageSchema,
      ),
    },
  });
}

// GET /webhooks/events and POST /webhooks/events/resend-failed
function registerWebhookEventList(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/webhooks/events",
    tags: [tag],
    operationId: "listWebhookEvents",
    summary: "The delivery log",
    description: "The business's webhook events, newest first, each with every delivery attempt.",
    security: security.secret,
    request: { query: webhookEventListQuerySchema },
    responses: {
      200: jsonResponse("A page of events.", WebhookEventListSchema),
      400: errorResponses.invalidFields,
      401: errorResponses.unauthorized,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/webhooks/events/resend-failed",
    tags: [tag],
    operationId: "resendFailedWebhookEvents",
    summary: "Resend every event that failed since a time",
    description:
      "Each event whose delivery finally failed at or after `since` starts a new round with the full retry schedule (same body and `webhook-id`).",
    security: security.secret,
    request: {
      headers: idempotencyKeyHeaders,
      body: jsonBody(resendFailedSchema.meta({ id: "WebhookResendFailedInput" })),
    },
    responses: {
      200: ok("How many events were sent again.", ResendFailedResultSchema),
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      409: noUrlConflict,
    },
  });
}

// GET /webhooks/events/{event_id} and POST its resend
function registerWebhookEvent(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/webhooks/events/{event_id}",
    tags: [tag],
    operationId: "getWebhookEvent",
    summary: "One event with its delivery attempts",
    description:
      "One webhook event of the business with its payload and every delivery attempt (request headers, response, error, duration).",
    security: security.secret,
    request: { params: eventParams },
    responses: {
      200: jsonResponse("The event.", WebhookEventSchema),
      401: errorResponses.unauthorized,
      404: eventNotFound,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/webhooks/events/{event_id}/resend",
    tags: [tag],
    operationId: "resendWebhookEvent",
    summary: "Send an event again",
    description:
      "A new round with the full retry schedule, the same body and `webhook-id` (receivers deduplicate on it), to the URL of now. A `skipped` event may be sent this way too.",
    security: security.secret,
    request: { params: eventParams, headers: idempotencyKeyHeaders, body: jsonBody(z.object({}), false) },
    responses: {
      200: ok("The event, `pending` again.", WebhookEventSchema),
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      404: eventNotFound,
      409: jsonResponse(
        "The event is still being delivered (`webhook_event_pending`), no webhook URL is set (`webhook_url_not_set`), or the Idempotency-Key was used with another request (`idempotency_key_reused`).",
        ErrorMessageSchema,
      ),
    },
  });
}

// POST /webhooks/test
function registerWebhookTest(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "post",
    path: "/webhooks/test",
    tags: [tag],
    operationId: "sendTestWebhookEvent",
    summary: "Send a test event",
    description:
      "Writes a test event of `type` (default `succeeded`, whether or not the business enabled that kind) with sample values and `test: true`, and delivers it like any other: signed, logged, retried.",
    security: security.secret,
    request: {
      headers: idempotencyKeyHeaders,
      body: jsonBody(testWebhookSchema.meta({ id: "WebhookTestInput" }), false),
    },
    responses: {
      201: ok("The test event.", WebhookEventSchema),
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      409: noUrlConflict,
    },
  });
}

// GET /webhooks/token and POST /webhooks/token/rotate
function registerWebhookToken(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/webhooks/token",
    tags: [tag],
    operationId: "getWebhookToken",
    summary: "The webhook token",
    description:
      "The token that signs deliveries; verify `Signature` (hex HMAC-SHA256 of the raw body) with it.",
    security: security.secret,
    responses: {
      200: jsonResponse("The token.", WebhookTokenSchema),
      401: errorResponses.unauthorized,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/webhooks/token/rotate",
    tags: [tag],
    operationId: "rotateWebhookToken",
    summary: "Replace the webhook token",
    description:
      "`Signature` uses the new token at once; for `overlap_seconds` (default 24 hours, at most 7 days, 0 after a leak) deliveries also carry a `webhook-signature` made with the old token, so receivers can switch at their pace.",
    security: security.secret,
    request: {
      headers: idempotencyKeyHeaders,
      body: jsonBody(rotateWebhookTokenSchema.meta({ id: "WebhookTokenRotateInput" }), false),
    },
    responses: {
      200: ok("The new token.", RotatedWebhookTokenSchema),
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      409: idempotencyConflict,
    },
  });
}
