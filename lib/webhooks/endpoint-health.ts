import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rawStatement } from "@/db/statement-per-db";
import { systemActor, withAuditActor } from "@/lib/audit/audit-actor";
import { recordAudit } from "@/lib/audit/record-audit";
import { env } from "@/lib/env";
import { notifyOwners, webhookDisabledNotice } from "@/lib/mail/notify-owners";
import { isoMicros } from "@/lib/time";

/**
 * A webhook endpoint's health (decision 0050), as the delivery job sees it: a failing streak
 * starts at the first failed attempt after a delivered one and counts the events that failed
 * every attempt; once it is old enough (business clock) and long enough, the endpoint is disabled
 * and its owners are told, once. A delivered event ends the streak.
 */

export type HealthRules = { disableAfterMs: number; disableAfterEvents: number };

/** The rules in force: the delivery options' (tests) or the environment's. */
export function healthRules(options: Partial<HealthRules> = {}): HealthRules {
  const e = env();
  return {
    disableAfterMs: options.disableAfterMs ?? Math.round(e.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000),
    disableAfterEvents: options.disableAfterEvents ?? e.WEBHOOK_DISABLE_AFTER_EVENTS,
  };
}

const p = (name: string) => sql.placeholder(name);

/** The business's time of now (its sandbox clock's offset included), as SQL. */
const businessNow = sql`now() + clock_offset_ms::float8 * interval '1 millisecond'`;

/** A failed attempt with more to come: the streak starts now unless it already runs (no write then). */
export const markEndpointFailing = rawStatement(
  "kassa_webhook_endpoint_failing",
  sql`update businesses set webhook_failing_since = ${businessNow}
    where id = ${p("businessId")} and webhook_failing_since is null`,
);

const countFailedEvent = rawStatement<{
  webhook_state: string;
  failing_since: string;
  failed_events: number;
  failing_ms: number;
}>(
  "kassa_webhook_endpoint_failed_event",
  sql`update businesses
    set webhook_failing_since = coalesce(webhook_failing_since, ${businessNow}),
      webhook_failed_events = webhook_failed_events + 1
    where id = ${p("businessId")}
    returning webhook_state, webhook_failing_since::text as failing_since, webhook_failed_events as failed_events,
      (extract(epoch from (${businessNow} - webhook_failing_since)) * 1000)::float8 as failing_ms`,
);

const disableEndpoint = rawStatement<{ since: string }>(
  "kassa_webhook_endpoint_disable",
  sql`update businesses
    set webhook_state = 'disabled', webhook_state_reason = ${p("reason")}, webhook_state_since = ${businessNow}
    where id = ${p("businessId")} and webhook_state = 'active'
    returning webhook_state_since::text as since`,
);

/**
 * A delivered event ends the streak (no write when none runs): SQL for a CTE of the statement
 * that records the last attempt, whose `status` placeholder says whether it was delivered.
 */
export const endpointHealthySql = sql`update businesses set webhook_failing_since = null, webhook_failed_events = 0
    where id = ${p("businessId")} and ${p("status")} = 'delivered'
      and (webhook_failing_since is not null or webhook_failed_events > 0)`;

function hoursText(ms: number): string {
  const hours = ms / 3_600_000;
  return Number.isInteger(hours) ? `${hours} hours` : `${hours.toFixed(1)} hours`;
}

/**
 * An event failed every attempt of its round: counts it in the streak and, when the rules say so,
 * disables the endpoint (audit event by Kassa, owner notice). Call it in the transaction that
 * records the failure. Answers whether this call disabled the endpoint.
 */
export async function recordFailedEvent(tx: Db, businessId: string, url: string | null, rules: HealthRules): Promise<boolean> {
  const [streak] = await countFailedEvent(tx, { businessId });
  if (!streak || streak.webhook_state !== "active") return false;
  if (streak.failed_events < rules.disableAfterEvents || streak.failing_ms < rules.disableAfterMs) return false;
  const failingSince = isoMicros(streak.failing_since);
  const reason = `Every attempt failed for more than ${hoursText(rules.disableAfterMs)} (${streak.failed_events} events since ${failingSince})`;
  const [disabled] = await disableEndpoint(tx, { businessId, reason });
  if (!disabled) return false;
  await withAuditActor(systemActor, () =>
    recordAudit(tx, {
      businessId,
      action: "webhook_endpoint.disable",
      target: { type: "business", id: businessId },
      changes: { state: { from: "active", to: "disabled" }, reason: { from: null, to: reason } },
    }),
  );
  await notifyOwners(tx, businessId, webhookDisabledNotice({ url: url ?? "(no URL)", reason }));
  return true;
}

/** The endpoint's state, read with a share lock: a resume in progress is waited for. */
const readStateLocked = rawStatement<{ webhook_state: string }>(
  "kassa_webhook_endpoint_state_locked",
  sql`select webhook_state from businesses where id = ${p("businessId")} for share`,
);

const holdEvent = rawStatement(
  "kassa_webhook_event_hold",
  sql`update webhook_events set status = 'held', next_attempt_at = null, last_error = ${p("note")}
    where id = ${p("eventId")}`,
);

/**
 * The endpoint is not active (as the attempt's read saw it): holds the event (kept, not attempted,
 * its round's attempts left as they are) unless a resume committed meanwhile. Answers whether it
 * was held. In the attempt's transaction, with the event's row locked.
 */
export async function holdIfNotActive(tx: Db, businessId: string, eventId: string): Promise<boolean> {
  const [row] = await readStateLocked(tx, { businessId });
  if (!row || row.webhook_state === "active") return false;
  await holdEvent(tx, { eventId, note: `held: the endpoint is ${row.webhook_state}` });
  return true;
}
