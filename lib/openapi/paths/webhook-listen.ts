import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { listenQuerySchema } from "@/lib/webhooks/listen-webhook-events";
import { ListenAttemptInputSchema, ListenPageSchema } from "@/lib/webhooks/listen-schemas";
import { WebhookAttemptSchema } from "@/lib/webhooks/webhook-schemas";
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

/** `npx kassa listen`'s endpoints (decision 0053): the events, and the local receiver's answers. */
export function registerWebhookListen(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/webhooks/listen",
    tags: [tag],
    operationId: "listenWebhookEvents",
    "x-internal": true,
    summary: "Wait for the business's next events",
    description:
      "Long polling for `npx kassa listen`: the events written after `after` (an event id; `beginning`: all; absent: after the newest one now), oldest first, each with its exact body and the signature headers a delivery starting now would carry. With `wait` (seconds, at most 25) an empty page comes only after that long without a new event. An event is handed out once it is a second old. Pass the answer's `after` to the next request: nothing is lost or repeated.",
    security: security.secret,
    request: { query: listenQuerySchema },
    responses: {
      200: jsonResponse("The events after `after`.", ListenPageSchema),
      400: errorResponses.invalidFields,
      401: errorResponses.unauthorized,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/webhooks/events/{event_id}/listen-attempts",
    tags: [tag],
    operationId: "recordListenAttempt",
    "x-internal": true,
    summary: "Log what a local receiver answered",
    description:
      "`npx kassa listen` reports how the local URL answered a forwarded event. It is logged among the event's attempts with `source: \"listen\"`, numbered on its own; it is not one of the 4 attempts and changes neither the event's status nor its endpoint's health.",
    security: security.secret,
    request: {
      params: z.object({ event_id: z.string().meta({ description: "The event's id (`evt_…`)." }) }),
      headers: idempotencyKeyHeaders,
      body: jsonBody(ListenAttemptInputSchema.meta({ id: "ListenAttemptInput" })),
    },
    responses: {
      201: { ...jsonResponse("The attempt as logged.", WebhookAttemptSchema), headers: idempotentReplayHeaders },
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      404: jsonResponse("No such event of the business (`webhook_event_not_found`).", ErrorMessageSchema),
      409: jsonResponse("The Idempotency-Key was used with another request (`idempotency_key_reused`).", ErrorMessageSchema),
    },
  });
}
