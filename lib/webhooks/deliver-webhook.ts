import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { Job, WebhookEvent } from "@/db/schema";
import { rawStatement } from "@/db/statement-per-db";
import { newId } from "@/lib/ids";
import type { JobHandler, JobOutcome } from "@/lib/jobs/job-outcome";
import { jobDoneSql } from "@/lib/jobs/run-job";
import { nextAttemptDelay, type WebhookDeliveryOptions } from "./delivery-options";
import { fixedRequestHeaders, sendWebhook, type SendWebhookResult } from "./send-webhook";
import { signatureHeaders } from "./sign-webhook";
import { signingTokensOf } from "./webhook-token";
import { observeWebhookDelivery } from "@/lib/metrics/webhook-metrics";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { notifyOwners, webhookFailingNotice, webhookFailingNoticeInterval } from "@/lib/mail/notify-owners";
import { endpointHealthySql, healthRules, holdIfNotActive, markEndpointFailing, recordFailedEvent } from "./endpoint-health";
import { redactedUrl } from "./redacted-url";

/** What an attempt needs of its event, as reserved (the counts include this attempt). */
type ReservedEvent = Pick<WebhookEvent, "id" | "businessId" | "body" | "round" | "attemptsInRound" | "attemptCount">;

type Reserved =
  | { kind: "stop"; reason: string }
  | {
      kind: "attempt";
      event: ReservedEvent;
      deliveryId: string;
      /** The URL to POST to (the recorded one has any credentials removed). */
      url: string | null;
      /** The headers to send, as recorded on the attempt (null without a URL). */
      headers: Record<string, string> | null;
    };

// The statements of an attempt, prepared (decision 0032): on postgres.js a statement with
// parameters that is not prepared is described first, two round trips, and is never pipelined.
const p = (name: string) => sql.placeholder(name);

/** The event (locked), its business's URL and token, and any token rotation: one round trip. */
const readForAttempt = rawStatement<{
  id: string;
  business_id: string;
  status: string;
  body: string;
  round: number;
  attempts_in_round: number;
  attempt_count: number;
  business_found: boolean | null;
  webhook_state: string | null;
  webhook_url: string | null;
  webhook_token_enc: string | null;
  previous_token_enc: string | null;
  previous_expires_at: string | null;
}>(
  "kassa_webhook_attempt_read",
  sql`select e.id, e.business_id, e.status, e.body, e.round, e.attempts_in_round, e.attempt_count,
      b.id is not null as business_found, b.webhook_state, b.webhook_url, b.webhook_token_enc,
      r.previous_token_enc, r.previous_expires_at
    from webhook_events e
    left join businesses b on b.id = e.business_id
    left join webhook_token_rotations r on r.business_id = e.business_id
    where e.id = ${p("eventId")}
    for update of e`,
);

const closeInFlight = rawStatement(
  "kassa_webhook_attempt_close_in_flight",
  sql`update webhook_deliveries
    set outcome = 'interrupted', finished_at = ${p("now")},
      error = 'interrupted: the worker stopped before recording the outcome'
    where event_id = ${p("eventId")} and outcome = 'in_flight'`,
);

const giveUpEvent = rawStatement(
  "kassa_webhook_event_give_up",
  sql`update webhook_events set status = 'failed', next_attempt_at = null where id = ${p("eventId")}`,
);

const insertAttempt = rawStatement(
  "kassa_webhook_attempt_insert",
  sql`insert into webhook_deliveries (id, event_id, business_id, number, round, url, request_headers, started_at)
    values (${p("id")}, ${p("eventId")}, ${p("businessId")}, ${p("number")}, ${p("round")}, ${p("url")},
      ${p("headers")}::jsonb, ${p("startedAt")})`,
);

const countAttempt = rawStatement(
  "kassa_webhook_event_count_attempt",
  sql`update webhook_events
    set attempt_count = ${p("attemptCount")}, attempts_in_round = ${p("attemptsInRound")},
      last_attempt_at = ${p("now")}, next_attempt_at = null
    where id = ${p("eventId")}`,
);

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
    const [row] = await readForAttempt(tx, { eventId });
    if (!row) return { kind: "stop", reason: "event not found" };
    if (row.status !== "pending") return { kind: "stop", reason: `event already ${row.status}` };
    const startedAt = new Date();
    const now = startedAt.toISOString();
    // Attempts are written with the count's increment: an event without any has none in flight.
    if (row.attempt_count > 0) await closeInFlight(tx, { eventId, now });
    if (row.attempts_in_round >= maxAttempts) {
      await giveUpEvent(tx, { eventId });
      return { kind: "stop", reason: "attempts exhausted" };
    }
    if (!row.business_found) return { kind: "stop", reason: "business not found" };
    // A paused or disabled endpoint: the event is kept, not attempted (decision 0050).
    if (row.webhook_state !== "active" && (await holdIfNotActive(tx, row.business_id, eventId)))
      return { kind: "stop", reason: `held: the endpoint is ${row.webhook_state}` };
    const url = row.webhook_url;
    const rotation =
      row.previous_token_enc !== null && row.previous_expires_at !== null
        ? { previousTokenEnc: row.previous_token_enc, previousExpiresAt: row.previous_expires_at }
        : null;
    const headers = url
      ? {
          ...signatureHeaders(signingTokensOf(row.webhook_token_enc!, rotation, startedAt), eventId, row.body, startedAt),
          ...fixedRequestHeaders(row.body),
        }
      : null;
    const event: ReservedEvent = {
      id: row.id,
      businessId: row.business_id,
      body: row.body,
      round: row.round,
      attemptCount: row.attempt_count + 1,
      attemptsInRound: row.attempts_in_round + 1,
    };
    const deliveryId = newId("delivery");
    // Both writes go out together (pipelined on PostgreSQL): the row lock makes them safe.
    await Promise.all([
      insertAttempt(tx, {
        id: deliveryId,
        eventId,
        businessId: event.businessId,
        number: event.attemptCount,
        round: event.round,
        url: redactedUrl(url),
        headers: headers && JSON.stringify(headers),
        startedAt: now,
      }),
      countAttempt(tx, {
        eventId,
        attemptCount: event.attemptCount,
        attemptsInRound: event.attemptsInRound,
        now,
      }),
    ]);
    return { kind: "attempt", event, deliveryId, url, headers };
  });
}

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
  const { event, deliveryId, url, headers } = reserved;
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
  return recordAttempt(db, job, event, deliveryId, result, options, url);
};
