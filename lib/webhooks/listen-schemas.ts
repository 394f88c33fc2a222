import { z } from "zod";
import { webhookEventTypes } from "@/db/schema";
import { isSafeText, safeText } from "@/lib/http/validation";

// GET /webhooks/listen and POST /webhooks/events/{event_id}/listen-attempts (decision 0053): the
// zod schemas that type them and that the OpenAPI document is generated from.

export const ListenedEventSchema = z
  .strictObject({
    id: z.string().meta({ description: "The event's id (`evt_…`), also its `webhook-id`." }),
    type: z.enum(webhookEventTypes),
    created_at: z.string().meta({ format: "date-time", description: "When it was written (the business's clock)." }),
    body: z.string().meta({ description: "The exact JSON body a delivery sends: POST it as is, byte for byte." }),
    headers: z.record(z.string(), z.string()).meta({
      description:
        "`Signature`, `webhook-id`, `webhook-timestamp` and `webhook-signature`, made with the business's webhook token as a delivery starting now would make them.",
    }),
  })
  .meta({ id: "ListenedEvent", description: "An event handed to `npx kassa listen`, signed." });

export const ListenPageSchema = z
  .strictObject({
    data: z.array(ListenedEventSchema).meta({ description: "Oldest first; empty when the wait ended without a new event." }),
    after: z.string().meta({
      description:
        "Pass it as `after` in the next request: the last event here, or where this request started (`beginning` for a business without events yet).",
    }),
  })
  .meta({ id: "ListenPage" });
export type ListenPage = z.infer<typeof ListenPageSchema>;

const text = (max: number) =>
  z.string().max(max, { error: `at most ${max} characters` }).refine(isSafeText, safeText);

export const ListenAttemptInputSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: "url must be an http(s) URL" }).max(2048).refine(isSafeText, safeText),
  status_code: z.int().min(100).max(599).nullable().optional().meta({ description: "The local receiver's status; null when it did not answer." }),
  error: text(1000).nullable().optional().meta({ description: "Why there was no answer (connection refused, timeout)." }),
  duration_ms: z.int().min(0).max(3_600_000),
  response_body: text(2048).nullable().optional().meta({ description: "The first 2 KB of the answer." }),
  request_headers: z
    .record(text(100), text(1000))
    .refine((h) => Object.keys(h).length <= 50, { error: "at most 50 headers" })
    .optional()
    .meta({ description: "The headers sent (those GET /webhooks/listen handed out, plus Content-Type)." }),
});
export type ListenAttemptInput = z.infer<typeof ListenAttemptInputSchema>;
