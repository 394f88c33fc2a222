import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookDeliveries, webhookEvents, type WebhookDelivery } from "@/db/schema";
import { isUniqueViolation } from "@/lib/db-errors";
import { NotFoundError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { toDbTime } from "@/lib/time";
import type { ListenAttemptInput } from "./listen-schemas";
import { redactedUrl } from "./redacted-url";

/**
 * POST /webhooks/events/{event_id}/listen-attempts: what a developer's local receiver answered
 * when `npx kassa listen` forwarded the event, logged as an attempt of its own (`source` listen,
 * numbered apart). The event itself, its schedule and its endpoint's health are not touched.
 */
export async function recordListenAttempt(
  db: Db,
  businessId: string,
  eventId: string,
  input: ListenAttemptInput,
): Promise<{ event: typeof webhookEvents.$inferSelect; attempt: WebhookDelivery }> {
  const [event] = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.businessId, businessId), eq(webhookEvents.id, eventId)));
  if (!event) throw new NotFoundError("webhook_event_not_found", "No such webhook event");
  const finishedAt = new Date();
  const status = input.status_code ?? null;
  const ok = status !== null && status >= 200 && status < 300;
  for (let tries = 0; ; tries++) {
    try {
      // In a savepoint: a taken number is retried within the caller's transaction.
      const [attempt] = await db.transaction((tx) => tx
        .insert(webhookDeliveries)
        .values({
          id: newId("delivery"),
          eventId,
          businessId,
          number: sql`(select coalesce(max(${webhookDeliveries.number}), 0) + 1 from ${webhookDeliveries}
            where ${webhookDeliveries.eventId} = ${eventId} and ${webhookDeliveries.source} = 'listen')`,
          round: event.round,
          source: "listen",
          url: redactedUrl(input.url),
          requestHeaders: input.request_headers ?? null,
          startedAt: toDbTime(new Date(finishedAt.getTime() - input.duration_ms)),
          finishedAt: toDbTime(finishedAt),
          durationMs: input.duration_ms,
          statusCode: status,
          responseBody: input.response_body ?? null,
          error: input.error ?? (ok ? null : status === null ? "no answer" : `HTTP ${status}`),
          outcome: ok ? "succeeded" : "failed",
        })
        .returning());
      return { event, attempt: attempt! };
    } catch (error) {
      // Two answers for one event at once took the same number: the later takes the next.
      if (tries < 5 && isUniqueViolation(error, "webhook_deliveries_number_idx")) continue;
      throw error;
    }
  }
}
