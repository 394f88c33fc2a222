import { and, asc, desc, eq, inArray, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import {
  webhookDeliveries,
  webhookEvents,
  webhookEventStatuses,
  webhookEventTypes,
  type WebhookDelivery,
  type WebhookEvent,
} from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { isSafeText, listLimitParam, parseOrThrow } from "@/lib/http/validation";
import { needsTokenHistory, webhookEventView, type WebhookEventView } from "./webhook-event-view";
import { webhookTokenHistory } from "./webhook-token";

const text = (name: string) =>
  z
    .string()
    .max(255, { error: `${name} must be at most 255 characters` })
    .refine(isSafeText, { error: `${name} must not contain NUL characters or unpaired surrogates` });

/** Query of GET /webhooks/events: every filter optional. */
export const webhookEventListQuerySchema = z.object({
  type: z
    .enum(webhookEventTypes, { error: `type must be one of ${webhookEventTypes.join(", ")}` })
    .optional(),
  status: z
    .enum(webhookEventStatuses, { error: `status must be one of ${webhookEventStatuses.join(", ")}` })
    .optional(),
  order_id: text("order_id").optional(),
  session_id: text("session_id").optional(),
  subscription_id: text("subscription_id").optional(),
  limit: listLimitParam().optional(),
  starting_after: z
    .string()
    .regex(/^evt_[0-9A-Za-z]{1,64}$/, { error: "starting_after must be an event id (evt_…)" })
    .optional(),
});

export type WebhookEventListQuery = z.infer<typeof webhookEventListQuerySchema>;

/** The query string of GET /webhooks/events, validated (400 field map naming the parameter). */
export function parseWebhookEventListQuery(params: URLSearchParams): WebhookEventListQuery {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(webhookEventListQuerySchema.shape)) {
    const value = params.get(key);
    if (value !== null && value !== "") raw[key] = value;
  }
  return parseOrThrow(webhookEventListQuerySchema, raw);
}

/** Every attempt of these events, grouped by event, oldest first. */
async function attemptsOf(db: Db, eventIds: string[]): Promise<Map<string, WebhookDelivery[]>> {
  const byEvent = new Map<string, WebhookDelivery[]>();
  if (!eventIds.length) return byEvent;
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.eventId, eventIds))
    .orderBy(asc(webhookDeliveries.eventId), asc(webhookDeliveries.number));
  for (const row of rows) {
    const list = byEvent.get(row.eventId) ?? [];
    list.push(row);
    byEvent.set(row.eventId, list);
  }
  return byEvent;
}

/** Events as the API shows them, each with its attempts. */
export async function webhookEventViews(db: Db, businessId: string, events: WebhookEvent[]) {
  if (!events.length) return [];
  const attempts = await attemptsOf(
    db,
    events.map((e) => e.id),
  );
  const tokens = [...attempts.values()].some(needsTokenHistory)
    ? await webhookTokenHistory(db, businessId)
    : null;
  return events.map((event) => webhookEventView(event, attempts.get(event.id) ?? [], tokens));
}

/**
 * GET /webhooks/events (and the dashboard's log): the business's events, newest first, `limit`
 * (default 10) per page after the `starting_after` event, each with its delivery attempts.
 */
export async function listWebhookEvents(
  db: Db,
  businessId: string,
  query: WebhookEventListQuery = {},
): Promise<{ data: WebhookEventView[]; has_more: boolean }> {
  const limit = query.limit ?? 10;
  const where: SQL[] = [eq(webhookEvents.businessId, businessId)];
  if (query.type) where.push(eq(webhookEvents.type, query.type));
  if (query.status) where.push(eq(webhookEvents.status, query.status));
  if (query.order_id !== undefined) where.push(eq(webhookEvents.orderId, query.order_id));
  if (query.session_id !== undefined) where.push(eq(webhookEvents.sessionId, query.session_id));
  if (query.subscription_id !== undefined)
    where.push(eq(webhookEvents.subscriptionId, query.subscription_id));
  // Ids sort by creation time (lib/ids.ts): newest first, the next page holds older ones.
  if (query.starting_after) where.push(lt(webhookEvents.id, query.starting_after));
  const rows = await db
    .select()
    .from(webhookEvents)
    .where(and(...where))
    .orderBy(desc(webhookEvents.id))
    .limit(limit + 1);
  return {
    data: await webhookEventViews(db, businessId, rows.slice(0, limit)),
    has_more: rows.length > limit,
  };
}

/** One event row of the business; another business's event is as unknown as a missing one. */
export async function findWebhookEvent(db: Db, businessId: string, eventId: string): Promise<WebhookEvent> {
  const [event] = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.businessId, businessId)));
  if (!event) throw new NotFoundError("webhook_event_not_found", "No such webhook event");
  return event;
}

/** One event with every attempt made (time, status code, duration, response excerpt, error). */
export async function getWebhookEvent(db: Db, businessId: string, eventId: string) {
  const event = await findWebhookEvent(db, businessId, eventId);
  const attempts = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.eventId, eventId))
    .orderBy(asc(webhookDeliveries.number));
  return { event, attempts };
}

/** GET /webhooks/events/{event_id}: the event as the API shows it. */
export async function getWebhookEventView(
  db: Db,
  businessId: string,
  eventId: string,
): Promise<WebhookEventView> {
  const { event, attempts } = await getWebhookEvent(db, businessId, eventId);
  const tokens = needsTokenHistory(attempts) ? await webhookTokenHistory(db, businessId) : null;
  return webhookEventView(event, attempts, tokens);
}
