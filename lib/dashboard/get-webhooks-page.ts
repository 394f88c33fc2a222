import type { Db } from "@/db/client";
import { listWebhookEvents } from "@/lib/webhooks/list-webhook-events";
import { getWebhookEndpoint } from "@/lib/webhooks/webhook-endpoint";
import type { WebhookEventView } from "@/lib/webhooks/webhook-event-view";
import { previousTokenValidUntil } from "@/lib/webhooks/webhook-token";
import { previousCursor } from "./previous-cursor";

export const webhookLogPageSize = 20;

/**
 * What the webhooks page shows: the endpoint, until when the previous signing token still signs,
 * and one page of the delivery log. `previous` is the previous page's cursor ("" for the first
 * page, null where there is none): it ignores the status filter, so a filtered log pages forwards only.
 */
export async function getWebhooksPage(db: Db, businessId: string, query: { status?: WebhookEventView["status"]; after?: string }) {
  const { status, after } = query;
  const [endpoint, previousUntil, log] = await Promise.all([
    getWebhookEndpoint(db, businessId),
    previousTokenValidUntil(db, businessId),
    listWebhookEvents(db, businessId, { status, limit: webhookLogPageSize, starting_after: after }),
  ]);
  const previous = after && !status ? await previousCursor(db, "webhook_events", businessId, log.data[0]?.id ?? after, webhookLogPageSize) : null;
  return { endpoint, previousUntil, log, previous };
}
