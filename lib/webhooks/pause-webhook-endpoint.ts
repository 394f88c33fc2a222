import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { businesses, webhookEvents } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { businessNowSql } from "@/lib/clock";
import { env } from "@/lib/env";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";

/** Body of POST /webhooks/endpoint/resume. */
export const resumeWebhookEndpointSchema = z.object({
  resend_held: z
    .boolean({ error: "resend_held must be true or false" })
    .optional()
    .meta({
      description:
        "true (default): every held event is sent, oldest first, one per WEBHOOK_HELD_RESEND_SPACING_MS; false: held events are marked failed (resend them one by one later).",
    }),
});
export type ResumeWebhookEndpointInput = z.infer<typeof resumeWebhookEndpointSchema>;

async function lockEndpoint(tx: Db, businessId: string) {
  const [row] = await tx
    .select({ state: businesses.webhookState, url: businesses.webhookUrl, reason: businesses.webhookStateReason })
    .from(businesses)
    .where(eq(businesses.id, businessId))
    .for("update");
  if (!row) throw new NotFoundError("business_not_found", "No such business");
  return row;
}

/**
 * Pauses the endpoint by hand: later attempts hold their events (kept, not attempted) until it
 * is resumed. Refused (409, nothing changes) when it is already paused or disabled. Run it in a
 * transaction.
 */
export async function pauseWebhookEndpoint(tx: Db, businessId: string): Promise<void> {
  const before = await lockEndpoint(tx, businessId);
  if (before.state === "paused") throw new ConflictError("webhook_endpoint_paused", "The webhook endpoint is already paused");
  if (before.state === "disabled")
    throw new ConflictError("webhook_endpoint_disabled", "The webhook endpoint is disabled: re-enable it with POST /webhooks/endpoint/resume");
  const reason = "Paused by hand";
  await tx
    .update(businesses)
    .set({ webhookState: "paused", webhookStateReason: reason, webhookStateSince: businessNowSql(businessId) })
    .where(eq(businesses.id, businessId));
  await recordAudit(tx, {
    businessId,
    action: "webhook_endpoint.pause",
    target: { type: "business", id: businessId },
    changes: { state: { from: "active", to: "paused" } },
  });
}

const batch = 500;

/** Held events go out again oldest first, `spacingMs` apart (business clock): a pace the endpoint can take. */
async function resendHeld(tx: Db, businessId: string, spacingMs: number): Promise<number> {
  let total = 0;
  for (;;) {
    const held = await tx
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.businessId, businessId), eq(webhookEvents.status, "held")))
      .orderBy(asc(webhookEvents.createdAt), asc(webhookEvents.id))
      .limit(batch)
      .for("update");
    for (const event of held) {
      const delayMs = total * spacingMs;
      await tx
        .update(webhookEvents)
        .set({ status: "pending", nextAttemptAt: businessNowSql(businessId, delayMs), lastError: null })
        .where(eq(webhookEvents.id, event.id));
      await enqueueJob(tx, { kind: "deliver_webhook", businessId, payload: { eventId: event.id }, delayMs, businessClock: true });
      total += 1;
    }
    if (held.length < batch) return total;
  }
}

/** Held events are not resent: they end as failed (kept; each can be resent by hand). */
async function releaseHeld(tx: Db, businessId: string, state: string): Promise<number> {
  const released = await tx
    .update(webhookEvents)
    .set({ status: "failed", nextAttemptAt: null, lastError: `held while the endpoint was ${state}; not resent` })
    .where(and(eq(webhookEvents.businessId, businessId), eq(webhookEvents.status, "held")))
    .returning({ id: webhookEvents.id });
  return released.length;
}

/**
 * Resumes a paused endpoint or re-enables a disabled one: the failing streak starts afresh, and
 * the events held meanwhile are sent again (oldest first, paced) or, with `resend_held: false`,
 * marked failed. Refused (409, nothing changes) when the endpoint is active, or when held events
 * are to be sent and no URL is set. Run it in a transaction that also writes jobs
 * (transactionWithJobs). Answers how many held events were resent or released.
 */
export async function resumeWebhookEndpoint(
  tx: Db,
  businessId: string,
  input: ResumeWebhookEndpointInput,
  options: { spacingMs?: number } = {},
): Promise<{ resent: number; released: number }> {
  const before = await lockEndpoint(tx, businessId);
  if (before.state === "active") throw new ConflictError("webhook_endpoint_active", "The webhook endpoint is active: nothing to resume");
  const resend = input.resend_held ?? true;
  if (resend && !before.url)
    throw new ConflictError("webhook_url_not_set", "No webhook URL is set: set one with POST /webhooks/endpoint, or resume with resend_held: false");
  await tx
    .update(businesses)
    .set({ webhookState: "active", webhookStateReason: null, webhookStateSince: null, webhookFailingSince: null, webhookFailedEvents: 0 })
    .where(eq(businesses.id, businessId));
  const spacingMs = options.spacingMs ?? env().WEBHOOK_HELD_RESEND_SPACING_MS;
  const resent = resend ? await resendHeld(tx, businessId, spacingMs) : 0;
  const released = resend ? 0 : await releaseHeld(tx, businessId, before.state);
  await recordAudit(tx, {
    businessId,
    action: "webhook_endpoint.resume",
    target: { type: "business", id: businessId },
    changes: { state: { from: before.state, to: "active" }, held_events: { from: resent + released, to: resend ? "resent" : "failed" } },
  });
  return { resent, released };
}

/** How many events the endpoint holds now. */
export async function countHeldEvents(db: Db, businessId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.businessId, businessId), eq(webhookEvents.status, "held")));
  return Number(row?.n ?? 0);
}
