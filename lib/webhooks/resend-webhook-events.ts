import { and, asc, eq, gte } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookEvents, type WebhookEvent } from "@/db/schema";
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

/**
 * Sends an event again by hand (dashboard button): a new round with the full retry schedule,
 * the same body and webhook-id (receivers deduplicate on it). Refused while a round is running.
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
    return startNewRound(tx, event);
  });
}

/** Resends every failed event of the business created at or after `since`; returns how many. */
export async function resendFailedWebhookEvents(db: Db, businessId: string, since: Date): Promise<number> {
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
            gte(webhookEvents.createdAt, since.toISOString()),
          ),
        )
        .orderBy(asc(webhookEvents.createdAt))
        .limit(500)
        .for("update", { skipLocked: true });
      for (const event of failed) await startNewRound(tx, event);
      return failed.length;
    });
    total += count;
    if (count < 500) return total;
  }
}
