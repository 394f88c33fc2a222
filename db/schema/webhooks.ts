import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex, type AnyPgColumn } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";
import { payments } from "./payments";
import { sessions } from "./sessions";

/**
 * The interface's event kinds, then Kassa's additions: `refunded_again` and `incomplete_again`
 * carry what happens again to an order after its `refunded` or `incomplete` (decision 0042).
 */
export const webhookEventTypes = [
  "succeeded",
  "pending_review",
  "declined",
  "refunded",
  "expired",
  "incomplete",
  "subscription_payment_failed",
  "subscription_canceled",
  "refunded_again",
  "incomplete_again",
  /** Opt-in: a payment was disputed (chargeback or inquiry). */
  "dispute_opened",
  /** Opt-in: a dispute ended (won, lost, or an inquiry closed). */
  "dispute_closed",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/**
 * pending: attempts remain; delivered: a 2xx came back; failed: attempts exhausted; skipped: no
 * URL; held: kept, not attempted, while the endpoint is paused or disabled (decision 0050).
 */
export const webhookEventStatuses = ["pending", "delivered", "failed", "skipped", "held"] as const;
export type WebhookEventStatus = (typeof webhookEventStatuses)[number];

/** One outbound notification. `body` is the exact JSON sent (and signed) on every attempt. */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    type: text("type", { enum: webhookEventTypes }).notNull(),
    sessionId: text("session_id").references(() => sessions.id),
    paymentId: text("payment_id").references(() => payments.id),
    subscriptionId: text("subscription_id"),
    orderId: text("order_id"),
    body: text("body").notNull(),
    /** Optional caller key making emission idempotent per business (e.g. one failure event per cycle). */
    dedupeKey: text("dedupe_key"),
    status: text("status", { enum: webhookEventStatuses }).notNull().default("pending"),
    /** 1, then +1 at each manual resend; each round has its own attempts. */
    round: integer("round").notNull().default(1),
    attemptsInRound: integer("attempts_in_round").notNull().default(0),
    /** Attempts over all rounds; numbers the rows of webhook_deliveries. */
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: tsCol("next_attempt_at"),
    lastAttemptAt: tsCol("last_attempt_at"),
    deliveredAt: tsCol("delivered_at"),
    lastError: text("last_error"),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_events_business_idx").on(t.businessId, t.createdAt),
    // The log's pages (newest id first, decision 0058): a business's events in id order.
    index("webhook_events_business_id_idx").on(t.businessId, t.id),
    index("webhook_events_status_idx").on(t.businessId, t.status, t.createdAt),
    // The overview's failing deliveries: only those events, in id order (decision 0058).
    index("webhook_events_failing_idx").on(t.businessId, t.id).where(failingEvent(t)),
    uniqueIndex("webhook_events_dedupe_idx").on(t.businessId, t.dedupeKey),
  ],
);

/**
 * An event whose delivery failed: for good, or its last attempt failed and it waits for a retry.
 * Written with constants, so that it is the predicate of webhook_events_failing_idx and a query
 * carrying it is served by that index (a parameter would not prove the index's predicate).
 */
export function failingEvent(t: { status: AnyPgColumn; lastError: AnyPgColumn }) {
  return sql`(${t.status} = 'failed' or (${t.status} = 'pending' and ${t.lastError} is not null))`;
}

export const webhookDeliverySources = ["delivery", "listen"] as const;

/** One HTTP attempt of an event: written before the request is sent, completed after. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    /** 1-based over all rounds: (event_id, number) is unique, so no attempt is ever made twice. */
    number: integer("number").notNull(),
    round: integer("round").notNull(),
    url: text("url"),
    /**
     * The request headers exactly as sent (signatures included: HMACs, never the token; a URL's
     * user:password goes as Basic auth and is not here). Written with the reservation, before
     * sending; null for attempts without a URL and for rows from before migration 0011.
     */
    requestHeaders: jsonb("request_headers").$type<Record<string, string>>(),
    startedAt: tsCol("started_at").notNull(),
    finishedAt: tsCol("finished_at"),
    durationMs: integer("duration_ms"),
    statusCode: integer("status_code"),
    /** First 2 KB of the response body. */
    responseBody: text("response_body"),
    error: text("error"),
    outcome: text("outcome", { enum: ["in_flight", "succeeded", "failed", "interrupted"] })
      .notNull()
      .default("in_flight"),
    /**
     * `delivery`: an attempt of the event's schedule; `listen`: the answer of a developer's
     * `npx kassa listen` forwarding it (numbered on its own, outside the schedule; decision 0053).
     */
    source: text("source", { enum: webhookDeliverySources }).notNull().default("delivery"),
  },
  (t) => [uniqueIndex("webhook_deliveries_number_idx").on(t.eventId, t.source, t.number)],
);

/** The token a rotation replaced, still used to sign (webhook-signature) until it expires. */
export const webhookTokenRotations = pgTable("webhook_token_rotations", {
  businessId: text("business_id")
    .primaryKey()
    .references(() => businesses.id),
  previousTokenEnc: text("previous_token_enc").notNull(),
  previousExpiresAt: tsCol("previous_expires_at").notNull(),
  rotatedAt: tsCol("rotated_at").notNull(),
});

export type WebhookEvent = typeof webhookEvents.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
