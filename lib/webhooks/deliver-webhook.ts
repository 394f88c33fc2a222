import { SpanStatusCode } from "@opentelemetry/api";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { Job } from "@/db/schema";
import { rawStatement } from "@/db/statement-per-db";
import type { JobHandler, JobOutcome } from "@/lib/jobs/job-outcome";
import { jobDoneSql } from "@/lib/jobs/run-job";
import { nextAttemptDelay, type WebhookDeliveryOptions } from "./delivery-options";
import { sendWebhook, type SendWebhookResult } from "./send-webhook";
import { reserveAttempt, type ReservedEvent } from "./reserve-attempt";
import { observeWebhookDelivery, webhookOutcome } from "@/lib/webhooks/webhook-metrics";
import { inSpan } from "@/lib/tracing";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { notifyOwners, webhookFailingNotice, webhookFailingNoticeInterval } from "@/lib/mail/notify-owners";
import { endpointHealthySql, healthRules, markEndpointFailing, recordFailedEvent } from "./endpoint-health";

// The statements of an attempt, prepared (decision 0032): on postgres.js a statement with
// parameters that is not prepared is described first, two round trips, and is never pipelined.
const p = (name: string) => sql.placeholder(name);

// Recording an attempt. An attempt's result is written only over its own in-flight row, and the
// event's only while it is still pending in the attempt's round (a resend starts a new one).
const deliveryResult = sql`update webhook_deliveries
    set finished_at = ${p("finishedAt")}, duration_ms = ${p("durationMs")}, status_code = ${p("statusCode")},
      response_body = ${p("responseBody")}, error = ${p("error")}, outcome = ${p("outcome")}
    where id = ${p("deliveryId")} and outcome = 'in_flight'`;

/**
 * The last attempt of a round (delivered, failed for good): its result, the event's end and
 * the job's finish (fenced by the job's lock token) in one statement, so one round trip and atomic.
 */
const recordFinalAttempt = rawStatement(
  "kassa_webhook_attempt_record_final",
  sql`with delivery as (${deliveryResult}),
    event as (
      update webhook_events
      set status = ${p("status")}, delivered_at = coalesce(${p("deliveredAt")}::timestamptz, delivered_at),
        next_attempt_at = null, last_error = ${p("lastError")}
      where id = ${p("eventId")} and status = 'pending' and round = ${p("round")}),
    job as (update jobs set ${jobDoneSql} where id = ${p("jobId")} and lock_token = ${p("lockToken")}),
    healthy as (${endpointHealthySql})
    select 1 as recorded`,
);

// A bigint: read as float8 so both drivers answer a number (postgres.js answers bigints as strings).
const readClock = rawStatement<{ clock_offset_ms: number }>(
  "kassa_webhook_business_clock",
  sql`select clock_offset_ms::float8 as clock_offset_ms from businesses where id = ${p("businessId")}`,
);

/** An attempt with a next one to come: its result and the event's next attempt time. */
const recordAttemptToRetry = rawStatement(
  "kassa_webhook_attempt_record_retry",
  sql`with delivery as (${deliveryResult})
    update webhook_events set next_attempt_at = ${p("nextAttemptAt")}, last_error = ${p("error")}
    where id = ${p("eventId")} and status = 'pending' and round = ${p("round")}`,
);

/** The event's kind, for the owner notice (the stored body is the interface's JSON). */
function eventKindOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { type?: unknown; event?: unknown; status?: unknown };
    const kind = parsed.type ?? parsed.event ?? parsed.status;
    return typeof kind === "string" ? kind : "webhook";
  } catch {
    return "webhook";
  }
}

/**
 * Records an attempt's result and decides what follows: done, next attempt, or given up. The
 * last attempt also finishes its job (`finished`); a retry leaves the job to the runner, which
 * makes it due again on the business's clock.
 */
async function recordAttempt(
  db: Db,
  job: Pick<Job, "id" | "lockToken">,
  event: ReservedEvent,
  deliveryId: string,
  result: SendWebhookResult,
  options: WebhookDeliveryOptions,
  url: string | null,
): Promise<JobOutcome> {
  const finishedAt = new Date();
  const error = result.error ?? (result.ok ? null : `HTTP ${result.statusCode}`);
  // A 410 is a failure like any other: the interface promises 4 attempts in all.
  const exhausted = event.attemptsInRound >= options.scheduleMs.length;
  const delayMs =
    result.ok || exhausted
      ? null
      : nextAttemptDelay(options.scheduleMs, event.attemptsInRound, result.retryAfterMs);
  const delivery = {
    deliveryId,
    finishedAt: finishedAt.toISOString(),
    durationMs: result.durationMs,
    statusCode: result.statusCode,
    responseBody: result.responseBody,
    error,
    outcome: result.ok ? "succeeded" : "failed",
    eventId: event.id,
    round: event.round,
  };
  if (delayMs === null) {
    const final = {
      ...delivery,
      status: result.ok ? "delivered" : "failed",
      deliveredAt: result.ok ? finishedAt.toISOString() : null,
      lastError: result.ok ? null : error,
      jobId: job.id,
      lockToken: job.lockToken,
      businessId: event.businessId,
    };
    if (result.ok) await recordFinalAttempt(db, final);
    // Given up: the owners hear of it (at most daily), in the transaction that records it; the
    // endpoint's failing streak counts it (and may disable the endpoint).
    else
      await transactionWithJobs(db, async (tx) => {
        await recordFinalAttempt(tx, final);
        await recordFailedEvent(tx, event.businessId, url, healthRules(options));
        await notifyOwners(tx, event.businessId, webhookFailingNotice({ url: url ?? "(no URL)", eventKind: eventKindOf(event.body), error }), {
          onceWithinMs: webhookFailingNoticeInterval,
        });
      });
    const note = result.ok ? "delivered" : `failed: ${error}`;
    // Without a lock token (a row not claimed) nothing was finished: the runner records it.
    return job.lockToken ? { status: "done", note, finished: true } : { status: "done", note };
  }
  // The next attempt is due on the business's clock (a sandbox clock's advance hurries it).
  const next = await db.transaction(async (tx) => {
    const [clock] = await readClock(tx, { businessId: event.businessId });
    const next = new Date(finishedAt.getTime() + (clock?.clock_offset_ms ?? 0) + delayMs);
    await recordAttemptToRetry(tx, { ...delivery, nextAttemptAt: next.toISOString() });
    await markEndpointFailing(tx, { businessId: event.businessId });
    return next;
  });
  return { status: "retry", at: next, clock: "business", note: error ?? undefined };
}

/**
 * The `deliver_webhook` job: one attempt per run. POSTs the stored body to the business's current
 * webhook URL with Signature and Standard Webhooks headers, then schedules the next attempt
 * (per the schedule, on the business's clock) or finishes. Only a 2xx acknowledges; any other answer (a 410 too) is retried until the 4 attempts are made.
 */
export const deliverWebhookJob: JobHandler = async (db, job, ctx) => {
  const options = ctx.webhooks;
  const reserved = await reserveAttempt(db, String(job.payload.eventId ?? ""), options.scheduleMs.length);
  if (reserved.kind === "stop") return { status: "done", note: reserved.reason };
  // A lost race: the other delivery's attempt may be on its way. This job looks again once that
  // attempt has timed out and its next one (if any) is due: it then finds the event settled, or
  // its next attempt to make, or the attempt still in flight (its worker died: interrupted).
  if (reserved.kind === "busy") {
    const waitMs = options.timeoutMs + nextAttemptDelay(options.scheduleMs, reserved.attemptsInRound, null) + 1000;
    return { status: "retry", at: new Date(Date.now() + waitMs), note: reserved.reason };
  }
  const { event, deliveryId, url, headers } = reserved;
  const result: SendWebhookResult =
    url && headers
      ? await inSpan("webhook.attempt", { "kassa.event_id": event.id, "kassa.delivery_id": deliveryId, "kassa.webhook_attempt": event.attemptsInRound }, async (span) => {
          const sent = await sendWebhook({
            url,
            body: event.body,
            // Exactly the headers recorded on the attempt.
            headers,
            timeoutMs: options.timeoutMs,
            allowPrivate: options.allowPrivate,
            resolve: options.resolve,
          });
          span.setAttribute("kassa.webhook_outcome", webhookOutcome(sent));
          if (sent.statusCode !== null) span.setAttribute("http.response.status_code", sent.statusCode);
          if (!sent.ok) span.setStatus({ code: SpanStatusCode.ERROR });
          return sent;
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
  observeWebhookDelivery(result, { eventId: event.id, deliveryId, attempt: event.attemptsInRound });
  return recordAttempt(db, job, event, deliveryId, result, options, url);
};
