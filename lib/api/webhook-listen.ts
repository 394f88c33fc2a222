import { readJsonObject } from "@/lib/http/body";
import { apiHandler } from "@/lib/api/handler";
import { json } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/http/validation";
import { listenWebhookEvents, parseListenQuery } from "@/lib/webhooks/listen-webhook-events";
import { ListenAttemptInputSchema } from "@/lib/webhooks/listen-schemas";
import { recordListenAttempt } from "@/lib/webhooks/record-listen-attempt";
import { webhookAttemptView } from "@/lib/webhooks/webhook-event-view";

// `npx kassa listen`'s two endpoints (decision 0053).

// GET /webhooks/listen?after=…&wait=…: the business's new events, signed (long polling)
export const getWebhookListen = apiHandler({
  auth: "secret",
  handle: async ({ request, db, caller }) =>
    json(200, await listenWebhookEvents(db, caller.business.id, parseListenQuery(new URL(request.url).searchParams), request.signal)),
});

// POST /webhooks/events/{event_id}/listen-attempts: what the local receiver answered
export const postWebhookListenAttempt = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, params, caller }) => {
    const body = await readJsonObject(request);
    const input = parseOrThrow(ListenAttemptInputSchema, body);
    return {
      body,
      atomic: true,
      run: async (tx) => {
        const { event, attempt } = await recordListenAttempt(tx, caller.business.id, params.event_id ?? "", input);
        return { status: 201, body: webhookAttemptView(event, attempt, null) };
      },
    };
  },
});
