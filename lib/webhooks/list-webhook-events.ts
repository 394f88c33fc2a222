import { and, asc, desc, eq, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookDeliveries, webhookEvents, type WebhookEvent } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";

/** A business's events, newest first (the dashboard's webhook log); page with `before` (an event id). */
export async function listWebhookEvents(
  db: Db,
  businessId: string,
  options: { status?: WebhookEvent["status"]; limit?: number; before?: string } = {},
): Promise<WebhookEvent[]> {
  return db
    .select()
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.businessId, businessId),
        options.status ? eq(webhookEvents.status, options.status) : undefined,
        // Ids are sortable by creation time (lib/ids.ts).
        options.before ? lt(webhookEvents.id, options.before) : undefined,
      ),
    )
    .orderBy(desc(webhookEvents.id))
    .limit(Math.min(Math.max(options.limit ?? 50, 1), 500));
}

/** One event with every attempt made (time, status code, duration, response excerpt, error). */
export async function getWebhookEvent(db: Db, businessId: string, eventId: string) {
  const [event] = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.businessId, businessId)));
  if (!event) throw new NotFoundError("webhook_event_not_found", "No such webhook event");
  const attempts = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.eventId, eventId))
    .orderBy(asc(webhookDeliveries.number));
  return { event, attempts };
}
