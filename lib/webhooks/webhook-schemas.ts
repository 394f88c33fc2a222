import { z } from "zod";
import { webhookEventStatuses, webhookEventTypes } from "@/db/schema";
import { WebhookPayloadSchema } from "./webhook-payload-schema";

/**
 * The webhook operations' answers as zod schemas: webhook-event-view.ts, webhook-endpoint.ts and
 * lib/api/webhooks.ts are typed by them and the OpenAPI document is generated from them.
 */

const timestamp = z
  .string()
  .meta({ format: "date-time", description: "ISO 8601, UTC, microsecond precision." });

export const WebhookEndpointSchema = z
  .strictObject({
    url: z
      .string()
      .nullable()
      .meta({
        description: "Where webhooks are sent; null: none are sent (events are recorded as skipped).",
      }),
    events: z
      .array(z.enum(webhookEventTypes))
      .meta({ description: "The event kinds sent, in the interface's order." }),
    state: z.enum(["active", "paused", "disabled"]).meta({
      description:
        "`active`: events are sent. `paused` (by hand) or `disabled` (Kassa stopped it: every attempt failed too long): events are held, kept and not sent, until it is resumed.",
    }),
    state_reason: z.string().nullable().meta({ description: "Why it is paused or disabled; null while active." }),
    state_since: timestamp.nullable().meta({ description: "Since when it is paused or disabled (the business's clock)." }),
    held_events: z.int().min(0).meta({ description: "Events held, waiting for the endpoint to be resumed." }),
    failing_since: timestamp
      .nullable()
      .meta({ description: "The first failed attempt since the last delivered event (the business's clock); null: not failing." }),
    failed_events: z.int().min(0).meta({ description: "Events that failed every attempt since `failing_since`." }),
    auto_disable: z
      .strictObject({
        after_hours: z.number().meta({ description: "WEBHOOK_DISABLE_AFTER_HOURS (default 72)." }),
        after_events: z.int().meta({ description: "WEBHOOK_DISABLE_AFTER_EVENTS (default 20)." }),
      })
      .meta({
        description:
          "The rule: an endpoint that failed every attempt for `after_hours` and at least `after_events` events is disabled, and its owners are told.",
      }),
  })
  .meta({
    id: "WebhookEndpoint",
    description: "Where the business's webhooks go and which kinds it receives.",
  });
export type WebhookEndpointView = z.infer<typeof WebhookEndpointSchema>;

export const WebhookAttemptSchema = z
  .strictObject({
    number: z.int().min(1).meta({ description: "1-based over all rounds (`listen` answers are numbered on their own)." }),
    source: z.enum(["delivery", "listen"]).meta({
      description:
        "`delivery`: an attempt of the event's schedule. `listen`: the answer of a developer's `npx kassa listen`, which forwarded the event to a local URL; it is not one of the 4 attempts and changes nothing of the event's delivery.",
    }),
    round: z.int().min(1).meta({ description: "1 for the event's first delivery, +1 for each resend." }),
    status: z.enum(["in_flight", "succeeded", "failed", "interrupted"]),
    started_at: timestamp,
    finished_at: timestamp.nullable(),
    duration_ms: z.int().nullable(),
    request: z
      .strictObject({
        method: z.literal("POST"),
        url: z.string(),
        headers: z.record(z.string(), z.string()).meta({
          description: "The headers sent, signatures included (HMACs, never the token).",
        }),
        headers_complete: z.boolean().meta({
          description:
            "False only for old attempts whose signing tokens are no longer known: their signature headers are left out.",
        }),
      })
      .nullable()
      .meta({ description: "What was sent (or would have been); null without a URL." }),
    response: z
      .strictObject({
        status: z.int(),
        body: z.string().nullable().meta({ description: "The first 2 KB of the receiver's answer." }),
      })
      .nullable()
      .meta({
        description: "The receiver's answer: null when none came (timeout, refused, connection error).",
      }),
    error: z.string().nullable(),
  })
  .meta({ id: "WebhookAttempt", description: "One HTTP delivery attempt of an event." });
export type WebhookAttemptView = z.infer<typeof WebhookAttemptSchema>;

export const WebhookEventSchema = z
  .strictObject({
    id: z
      .string()
      .meta({ description: "Event id, prefix `evt_`; also the `webhook-id` header of every attempt." }),
    type: z.enum(webhookEventTypes),
    test: z
      .boolean()
      .meta({
        description: "A test event sent with POST /webhooks/test (its payload carries `test: true`).",
      }),
    status: z.enum(webhookEventStatuses).meta({
      description:
        "`pending` (being delivered), `delivered`, `failed` (every attempt of the round failed), `skipped` (no URL was set), `held` (kept, not attempted: the endpoint is paused or disabled; sent when it is resumed).",
    }),
    created_at: timestamp,
    session_id: z.string().nullable(),
    order_id: z.string().nullable(),
    subscription_id: z.string().nullable(),
    // The exact body sent (and signed) on every attempt, parsed.
    payload: WebhookPayloadSchema,
    attempt_count: z.int().min(0),
    resend_count: z.int().min(0),
    delivered_at: timestamp.nullable(),
    next_attempt_at: timestamp
      .nullable()
      .meta({ description: "On the business's clock (a sandbox clock's advance brings it nearer)." }),
    last_error: z.string().nullable(),
    attempts: z.array(WebhookAttemptSchema).meta({ description: "Every attempt made, oldest first." }),
  })
  .meta({ id: "WebhookEvent", description: "A webhook event of the business with its delivery attempts." });
export type WebhookEventView = z.infer<typeof WebhookEventSchema>;

export const WebhookEventListSchema = z
  .strictObject({ data: z.array(WebhookEventSchema), has_more: z.boolean() })
  .meta({ id: "WebhookEventList", description: "Events, newest first." });

export const ResendFailedResultSchema = z
  .strictObject({
    resent: z.int().min(0).meta({ description: "How many failed events were sent again." }),
    since: timestamp,
  })
  .meta({ id: "WebhookResendFailedResult" });

export const WebhookTokenSchema = z
  .strictObject({
    token: z
      .string()
      .meta({ description: "The webhook token that signs deliveries (`Signature`, `webhook-signature`)." }),
    previous_token_expires_at: timestamp
      .nullable()
      .meta({
        description:
          "Until when the token a rotation replaced still signs `webhook-signature`; null if none does.",
      }),
  })
  .meta({ id: "WebhookToken" });

export const RotatedWebhookTokenSchema = z
  .strictObject({
    token: z.string().meta({ description: "The new token; `Signature` uses it at once." }),
    previous_token_expires_at: timestamp.meta({
      description:
        "Until when the replaced token still signs `webhook-signature` too (now when overlap_seconds is 0).",
    }),
  })
  .meta({ id: "RotatedWebhookToken" });
