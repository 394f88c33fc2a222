import { index, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";

/**
 * Objects Kassa created at a provider (Stripe customers and payment intents, sandbox payments):
 * how an inbound event is attributed to a business before its signature is checked.
 */
export const providerObjects = pgTable(
  "provider_objects",
  {
    provider: text("provider").notNull(),
    objectId: text("object_id").notNull(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    kind: text("kind").notNull(),
    sessionId: text("session_id"),
    attemptId: text("attempt_id"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.objectId] })],
);

export const providerEventStatuses = ["received", "processed", "ignored"] as const;
export type ProviderEventStatus = (typeof providerEventStatuses)[number];

/**
 * An inbound provider event whose signature verified, stored once per (provider, business, event
 * id) and processed by a `process_provider_event` job: a second delivery is acknowledged and ignored.
 */
export const providerEvents = pgTable(
  "provider_events",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: providerEventStatuses }).notNull().default("received"),
    note: text("note"),
    createdAt: createdAt(),
    processedAt: tsCol("processed_at"),
  },
  (t) => [
    uniqueIndex("provider_events_event_idx").on(t.provider, t.businessId, t.eventId),
    index("provider_events_business_idx").on(t.businessId, t.createdAt),
  ],
);

export type ProviderObject = typeof providerObjects.$inferSelect;
export type ProviderEvent = typeof providerEvents.$inferSelect;
