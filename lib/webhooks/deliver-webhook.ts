import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  businesses,
  webhookDeliveries,
  webhookEvents,
  webhookTokenRotations,
  type WebhookDelivery,
  type WebhookEvent,
} from "@/db/schema";
import { newId } from "@/lib/ids";
import type { JobHandler, JobOutcome } from "@/lib/jobs/job-outcome";
import { nextAttemptDelay, type WebhookDeliveryOptions } from "./delivery-options";
import { fixedRequestHeaders, sendWebhook, type SendWebhookResult } from "./send-webhook";
import { signatureHeaders } from "./sign-webhook";
import { signingTokensOf } from "./webhook-token";
import { observeWebhookDelivery } from "@/lib/metrics/webhook-metrics";

type Reserved =
  | { kind: "stop"; reason: string }
  | {
      kind: "attempt";
      event: WebhookEvent;
      delivery: WebhookDelivery;
      /** The URL to POST to (the recorded one has any credentials removed). */
      url: string | null;
      /** The headers to send, as recorded on the attempt (null without a URL). */
      headers: Record<string, string> | null;
    };

/** The URL as recorded in the attempt log: without user:password. */
function redactedUrl(raw: string | null): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    if (!url.username && !url.password) return raw;
    url.username = "";
    url.password = "";
    return url.toString();
  } catch {
    return raw;
  }
}

/**
 * Reserves the next attempt of an event: with the event row locked, numbers the attempt and
 * writes it (in flight) before anything is sent. (event_id, number) is unique, so two workers can
 * never make the same attempt; an attempt left in flight by a worker that died is closed as
 * interrupted (it may or may not have reached the receiver) and counts as made.
 *
 * The request's headers (signed now, with the tokens that sign now) are written on the attempt
 * row in the same transaction, before anything is sent: an attempt that reached a receiver always
 * has its headers in the log. A crash after this commit and before the send leaves an attempt
 * with headers that were perhaps never sent; it is closed as interrupted, as said above.
 */
export async function reserveAttempt(db: Db, eventId: string, maxAttempts: number): Promise<Reserved> {
  return db.transaction(async (tx): Promise<Reserved> => {
    // The event (locked), its business's URL and token, and any token rotation: one round trip.
    const [row] = await tx
      .select({
        event: webhookEvents,
        business: { webhookUrl: businesses.webhookUrl, webhookTokenEnc: businesses.webhookTokenEnc },
        rotation: {
          previousTokenEnc: webhookTokenRotations.previousTokenEnc,
          previousExpiresAt: webhookTokenRotations.previousExpiresAt,
        },
      })
      .from(webhookEvents)
      .leftJoin(businesses, eq(businesses.id, webhookEvents.businessId))
      .leftJoin(webhookTokenRotations, eq(webhookTokenRotations.businessId, webhookEvents.businessId))
      .where(eq(webhookEvents.id, eventId))
      .for("update", { of: webhookEvents });
    if (!row) return { kind: "stop", reason: "event not found" };
    const { event, business, rotation } = row;
    if (event.status !== "pending") return { kind: "stop", reason: `event already ${event.status}` };
    const startedAt = new Date();
    const now = startedAt.toISOString();
    // Attempts are written with the count's increment: an event without any has none in flight.
    if (event.attemptCount > 0)
      await tx
        .update(webhookDeliveries)
        .set({
          outcome: "interrupted",
          finishedAt: now,
          error: "interrupted: the worker stopped before recording the outcome",
        })
        .where(and(eq(webhookDeliveries.eventId, event.id), eq(webhookDeliveries.outcome, "in_flight")));
    if (event.attemptsInRound >= maxAttempts) {
      await tx
        .update(webhookEvents)
        .set({ status: "failed", nextAttemptAt: null })
        .where(eq(webhookEvents.id, event.id));
      return { kind: "stop", reason: "attempts exhausted" };
    }
    if (!business) return { kind: "stop", reason: "business not found" };
    const headers = business.webhookUrl
      ? {
          ...signatureHeaders(
            signingTokensOf(business.webhookTokenEnc, rotation, startedAt),
            event.id,
            event.body,
            startedAt,
          ),
          ...fixedRequestHeaders(event.body),
        }
      : null;
    // Both writes go out together (pipelined on PostgreSQL): the row lock makes them safe.
    const [[delivery], [updated]] = await Promise.all([
      tx
        .insert(webhookDeliveries)
        .values({
          id: newId("delivery"),
          eventId: event.id,
          businessId: event.businessId,
          number: event.attemptCount + 1,
          round: event.round,
          url: redactedUrl(business.webhookUrl),
          requestHeaders: headers,
          startedAt: now,
        })
        .returning(),
      tx
        .update(webhookEvents)
        .set({
          attemptCount: event.attemptCount + 1,
          attemptsInRound: event.attemptsInRound + 1,
          lastAttemptAt: now,
          nextAttemptAt: null,
        })
        .where(eq(webhookEvents.id, event.id))
        .returning(),
    ]);
    return {
      kind: "attempt",
      event: updated!,
      delivery: delivery!,
      url: business.webhookUrl,
      headers,
    };
  });
}

/** Records an attempt's result and decides what follows: done, next attempt, or given up. */
async function recordAttempt(
  db: Db,
  event: WebhookEvent,
  delivery: WebhookDelivery,
  result: SendWebhookResult,
  options: WebhookDeliveryOptions,
): Promise<JobOutcome> {
  const finishedAt = new Date();
  const error = result.error ?? (result.ok ? null : `HTTP ${result.statusCode}`);
  const gone = result.statusCode === 410;
  const exhausted = event.attemptsInRound >= options.scheduleMs.length;
  const delayMs =
    result.ok || gone || exhausted
      ? null
      : nextAttemptDelay(options.scheduleMs, event.attemptsInRound, result.retryAfterMs);
  const next = await db.transaction(async (tx) => {
    // The next attempt is due on the business's clock (a sandbox clock's advance hurries it).
    let next: Date | null = null;
    if (delayMs !== null) {
      const [clock] = await tx
        .select({ clockOffsetMs: businesses.clockOffsetMs })
        .from(businesses)
        .where(eq(businesses.id, event.businessId));
      next = new Date(finishedAt.getTime() + (clock?.clockOffsetMs ?? 0) + delayMs);
    }
    // Both writes go out together (pipelined on PostgreSQL), in one transaction.
    await Promise.all([
      tx
        .update(webhookDeliveries)
        .set({
          finishedAt: finishedAt.toISOString(),
          durationMs: result.durationMs,
          statusCode: result.statusCode,
          responseBody: result.responseBody,
          error,
          outcome: result.ok ? "succeeded" : "failed",
        })
        .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.outcome, "in_flight"))),
      tx
        .update(webhookEvents)
        .set(
          result.ok
            ? {
                status: "delivered",
                deliveredAt: finishedAt.toISOString(),
                nextAttemptAt: null,
                lastError: null,
              }
            : next
              ? { nextAttemptAt: next.toISOString(), lastError: error }
              : {
                  status: "failed",
                  nextAttemptAt: null,
                  lastError: gone ? "410 Gone: no further attempts" : error,
                },
        )
        .where(
          and(
            eq(webhookEvents.id, event.id),
            eq(webhookEvents.status, "pending"),
            eq(webhookEvents.round, event.round),
          ),
        ),
    ]);
    return next;
  });
  if (next) return { status: "retry", at: next, clock: "business", note: error ?? undefined };
  return { status: "done", note: result.ok ? "delivered" : `failed: ${error}` };
}

/**
 * The `deliver_webhook` job: one attempt per run. POSTs the stored body to the business's current
 * webhook URL with Signature and Standard Webhooks headers, then schedules the next attempt
 * (per the schedule, on the business's clock) or finishes. Only a 2xx acknowledges; a 410 stops at once.
 */
export const deliverWebhookJob: JobHandler = async (db, job, ctx) => {
  const options = ctx.webhooks;
  const reserved = await reserveAttempt(db, String(job.payload.eventId ?? ""), options.scheduleMs.length);
  if (reserved.kind === "stop") return { status: "done", note: reserved.reason };
  const { event, delivery, url, headers } = reserved;
  const result: SendWebhookResult =
    url && headers
      ? await sendWebhook({
          url,
          body: event.body,
          // Exactly the headers recorded on the attempt.
          headers,
          timeoutMs: options.timeoutMs,
          allowPrivate: options.allowPrivate,
          resolve: options.resolve,
        })
      : {
          ok: false,
          statusCode: null,
          durationMs: 0,
          responseBody: null,
          error: "no webhook URL configured",
          retryAfterMs: null,
          refused: true,
        };
  observeWebhookDelivery(result);
  return recordAttempt(db, event, delivery, result, options);
};
