import { and, asc, eq, gte } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, webhookEvents, type WebhookEvent } from "@/db/schema";
import { businessNowSql } from "@/lib/clock";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { enqueueJob, transactionWithJobs } from "@/lib/jobs/enqueue-job";

async function startNewRound(tx: Db, event: WebhookEvent): Promise<WebhookEvent> {
  const [updated] = await tx
    .update(webhookEvents)
    .set({
      status: "pending",
      round: event.round + 1,
      attemptsInRound: 0,
      nextAttemptAt: businessNowSql(event.businessId),
      lastError: null,
    })
    .where(eq(webhookEvents.id, event.id))
    .returning();
  await enqueueJob(tx, {
    kind: "deliver_webhook",
    businessId: event.businessId,
    payload: { eventId: event.id },
    businessClock: true,
  });
  return updated!;
}

/** 409 when the business has no URL: a resend would only record failed attempts. */
async function requireWebhookUrl(tx: Db, businessId: string): Promise<void> {
  const [business] = await tx
    .select({ webhookUrl: businesses.webhookUrl })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  if (!business?.webhookUrl)
    throw new ConflictError(
      "webhook_url_not_set",
      "No webhook URL is set: set one with POST /webhooks/endpoint",
    );
}

/**
 * Sends an event again by hand (API, dashboard button): a new round with the full retry
 * schedule, the same body and webhook-id (receivers deduplicate on it), to the business's URL of
 * now. Refused while a round is running, and when no URL is set. A `skipped` event (it had no URL
 * then) may be sent this way too.
 */
export async function resendWebhookEvent(db: Db, businessId: string, eventId: string): Promise<WebhookEvent> {
  return transactionWithJobs(db, async (tx) => {
    const [event] = await tx
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.businessId, businessId)))
      .for("update");
    if (!event) throw new NotFoundError("webhook_event_not_found", "No such webhook event");
    if (event.status === "pending")
      throw new ConflictError("webhook_event_pending", "This event is still being delivered");
    await requireWebhookUrl(tx, businessId);
    return startNewRound(tx, event);
  });
}

/**
 * Resends every event of the business whose delivery finally failed at or after `since` (its last
 * attempt started then or later: an endpoint down since `since` failed exactly these); returns
 * how many.
 */
export async function resendFailedWebhookEvents(db: Db, businessId: string, since: Date): Promise<number> {
  await requireWebhookUrl(db, businessId);
  let total = 0;
  for (;;) {
    const count = await transactionWithJobs(db, async (tx) => {
      const failed = await tx
        .select()
        .from(webhookEvents)
        .where(
          and(
            eq(webhookEvents.businessId, businessId),
            eq(webhookEvents.status, "failed"),
            gte(webhookEvents.lastAttemptAt, since.toISOString()),
          ),
        )
        .orderBy(asc(webhookEvents.id))
        .limit(500)
        .for("update", { skipLocked: true });
      for (const event of failed) await startNewRound(tx, event);
      return failed.length;
    });
    total += count;
    if (count < 500) return total;
  }
}
