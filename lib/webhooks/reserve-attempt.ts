import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { WebhookEvent } from "@/db/schema";
import { rawStatement } from "@/db/statement-per-db";
import { newId } from "@/lib/ids";
import { fixedRequestHeaders } from "./send-webhook";
import { signatureHeaders } from "./sign-webhook";
import { signingTokensOf } from "./webhook-token";
import { holdIfNotActive } from "./endpoint-health";
import { redactedUrl } from "./redacted-url";

/** What an attempt needs of its event, as reserved (the counts include this attempt). */
export type ReservedEvent = Pick<WebhookEvent, "id" | "businessId" | "body" | "round" | "attemptsInRound" | "attemptCount">;

export type Reserved =
  | { kind: "stop"; reason: string }
  /**
   * Another delivery of the event reserved the attempt this one was about to make (a lost race):
   * nothing was written; the attempt it made is its own to record. `attemptsInRound` counts it.
   */
  | { kind: "busy"; reason: string; attemptsInRound: number }
  | {
      kind: "attempt";
      event: ReservedEvent;
      deliveryId: string;
      /** The URL to POST to (the recorded one has any credentials removed). */
      url: string | null;
      /** The headers to send, as recorded on the attempt (null without a URL). */
      headers: Record<string, string> | null;
      /** How it was reserved: one conditional statement, or the locked transaction. */
      via: "conditional" | "locked";
    };

/** The event, its business's URL, state and token, and any token rotation, as read for an attempt. */
export type AttemptRead = {
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
};

// The statements of an attempt, prepared (decision 0032): on postgres.js a statement with
// parameters that is not prepared is described first, two round trips, and is never pipelined.
const p = (name: string) => sql.placeholder(name);

const readSql = sql`select e.id, e.business_id, e.status, e.body, e.round, e.attempts_in_round, e.attempt_count,
      b.id is not null as business_found, b.webhook_state, b.webhook_url, b.webhook_token_enc,
      r.previous_token_enc, r.previous_expires_at
    from webhook_events e
    left join businesses b on b.id = e.business_id
    left join webhook_token_rotations r on r.business_id = e.business_id
    where e.id = ${p("eventId")}`;

/** The read, unlocked: what the conditional reservation decides on and signs with. */
const readUnlocked = rawStatement<AttemptRead>("kassa_webhook_attempt_read_unlocked", readSql);

/** The read with the event's row locked: the locked transaction's. */
const readLocked = rawStatement<AttemptRead>("kassa_webhook_attempt_read", sql`${readSql} for update of e`);

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
 * The conditional reservation: the event's count goes up only where it is still pending, in the
 * round read, with the attempt count read, and its endpoint active; the attempt is inserted from
 * that update's row, in the same statement (so both or neither). On PostgreSQL a concurrent
 * reservation of the same event waits for the row and then finds the count changed: no row.
 */
const reserveConditionally = rawStatement<{ id: string }>(
  "kassa_webhook_attempt_reserve",
  sql`with reserved as (
      update webhook_events e
      set attempt_count = e.attempt_count + 1, attempts_in_round = e.attempts_in_round + 1,
        last_attempt_at = ${p("now")}, next_attempt_at = null
      where e.id = ${p("eventId")} and e.status = 'pending' and e.round = ${p("round")}
        and e.attempt_count = ${p("attemptCount")}
        and exists (select 1 from businesses b where b.id = e.business_id and b.webhook_state = 'active')
      returning e.id, e.business_id, e.attempt_count, e.round)
    insert into webhook_deliveries (id, event_id, business_id, number, round, url, request_headers, started_at)
    select ${p("id")}::text, id, business_id, attempt_count, round, ${p("url")}::text, ${p("headers")}::jsonb,
      ${p("startedAt")}::timestamptz
    from reserved
    returning id`,
);

/** The attempt after `row` (as read): its event's counts, URL and headers, signed at `startedAt`. */
function nextAttemptOf(row: AttemptRead, startedAt: Date) {
  const url = row.webhook_url;
  const rotation =
    row.previous_token_enc !== null && row.previous_expires_at !== null
      ? { previousTokenEnc: row.previous_token_enc, previousExpiresAt: row.previous_expires_at }
      : null;
  const headers = url
    ? {
        ...signatureHeaders(signingTokensOf(row.webhook_token_enc!, rotation, startedAt), row.id, row.body, startedAt),
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
  return { event, url, headers, deliveryId: newId("delivery"), now: startedAt.toISOString() };
}

/**
 * Reserves the next attempt of an event: numbers the attempt and writes it (in flight) with the
 * event's count before anything is sent. (event_id, number) is unique, so two workers can never
 * make the same attempt; an attempt left in flight by a worker that died is closed as interrupted
 * (it may or may not have reached the receiver) and counts as made.
 *
 * The request's headers (signed now, with the tokens that sign now) are written on the attempt
 * row with the reservation, before anything is sent: an attempt that reached a receiver always
 * has its headers in the log. A crash after the reservation and before the send leaves an attempt
 * with headers that were perhaps never sent; it is closed as interrupted, as said above.
 *
 * The common case, an event's first attempt to an active endpoint, is one statement after an
 * unlocked read (reserveAfterRead); anything else takes the locked transaction.
 */
export async function reserveAttempt(db: Db, eventId: string, maxAttempts: number): Promise<Reserved> {
  const [row] = await readUnlocked(db, { eventId });
  return row ? reserveAfterRead(db, row, maxAttempts) : reserveLocked(db, eventId, maxAttempts);
}

/**
 * The reservation after an unlocked read of the event: the conditional statement when the read
 * shows a pending event without attempts (none can be in flight) whose endpoint is active;
 * otherwise, or when the statement matched no row (the event changed since the read), the locked
 * transaction, told the count read: if another delivery counted an attempt meanwhile, that
 * attempt may be on its way now, so none is made (`busy`) and nothing it wrote is closed.
 */
export async function reserveAfterRead(db: Db, row: AttemptRead, maxAttempts: number): Promise<Reserved> {
  const common =
    row.status === "pending" &&
    row.attempt_count === 0 &&
    row.attempts_in_round < maxAttempts &&
    row.business_found === true &&
    row.webhook_state === "active";
  if (!common) return reserveLocked(db, row.id, maxAttempts);
  const next = nextAttemptOf(row, new Date());
  const [reserved] = await reserveConditionally(db, {
    eventId: row.id,
    round: row.round,
    attemptCount: row.attempt_count,
    now: next.now,
    id: next.deliveryId,
    url: redactedUrl(next.url),
    headers: next.headers && JSON.stringify(next.headers),
    startedAt: next.now,
  });
  if (!reserved) return reserveLocked(db, row.id, maxAttempts, row.attempt_count);
  return { kind: "attempt", event: next.event, deliveryId: next.deliveryId, url: next.url, headers: next.headers, via: "conditional" };
}

/** The reservation with the event's row locked; `countRead`: the count an unlocked read saw. */
async function reserveLocked(db: Db, eventId: string, maxAttempts: number, countRead?: number): Promise<Reserved> {
  return db.transaction(async (tx): Promise<Reserved> => {
    const [row] = await readLocked(tx, { eventId });
    if (!row) return { kind: "stop", reason: "event not found" };
    if (row.status !== "pending") return { kind: "stop", reason: `event already ${row.status}` };
    if (countRead !== undefined && row.attempt_count !== countRead)
      return { kind: "busy", reason: "another delivery of this event reserved its attempt", attemptsInRound: row.attempts_in_round };
    const startedAt = new Date();
    // Attempts are written with the count's increment: an event without any has none in flight.
    if (row.attempt_count > 0) await closeInFlight(tx, { eventId, now: startedAt.toISOString() });
    if (row.attempts_in_round >= maxAttempts) {
      await giveUpEvent(tx, { eventId });
      return { kind: "stop", reason: "attempts exhausted" };
    }
    if (!row.business_found) return { kind: "stop", reason: "business not found" };
    // A paused or disabled endpoint: the event is kept, not attempted (decision 0050).
    if (row.webhook_state !== "active" && (await holdIfNotActive(tx, row.business_id, eventId)))
      return { kind: "stop", reason: `held: the endpoint is ${row.webhook_state}` };
    const { event, url, headers, deliveryId, now } = nextAttemptOf(row, startedAt);
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
      countAttempt(tx, { eventId, attemptCount: event.attemptCount, attemptsInRound: event.attemptsInRound, now }),
    ]);
    return { kind: "attempt", event, deliveryId, url, headers, via: "locked" };
  });
}

/** For tests: the unlocked read alone (a second deliverer's read, raced by hand). */
export async function readForAttempt(db: Db, eventId: string): Promise<AttemptRead | undefined> {
  return (await readUnlocked(db, { eventId }))[0];
}
