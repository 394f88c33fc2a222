import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";
import { sessions, type Metadata, type SessionItem } from "./sessions";

/** The payer may set the (single) item's quantity within these bounds (decision 0049). */
export type AdjustableQuantity = { minimum: number; maximum: number };

/**
 * A reusable payment link (decision 0049): `{ORIGIN}/l/{slug}` makes a new session of these items
 * (or this plan) per visit, with the order id `{order_prefix}-{n}`, n the link's next use.
 */
export const paymentLinks = pgTable(
  "payment_links",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    slug: text("slug").notNull(),
    orderPrefix: text("order_prefix").notNull(),
    active: boolean("active").notNull().default(true),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    items: jsonb("items").$type<SessionItem[]>().notNull(),
    description: text("description"),
    metadata: jsonb("metadata").$type<Metadata>().notNull(),
    subscriptionInterval: text("subscription_interval", { enum: ["day", "week", "month", "year"] }),
    subscriptionIntervalCount: integer("subscription_interval_count"),
    adjustableQuantity: jsonb("adjustable_quantity").$type<AdjustableQuantity>(),
    maxUses: integer("max_uses"),
    /** Sessions made so far: the last order id's sequence number. */
    uses: integer("uses").notNull().default(0),
    expiresAt: tsCol("expires_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payment_links_slug_idx").on(t.slug),
    uniqueIndex("payment_links_business_prefix_idx").on(t.businessId, t.orderPrefix),
  ],
);

export type PaymentLink = typeof paymentLinks.$inferSelect;

/** Each session a link made, and the visit (the payer's cookie) it was made for. */
export const paymentLinkSessions = pgTable(
  "payment_link_sessions",
  {
    sessionId: text("session_id")
      .primaryKey()
      .references(() => sessions.id),
    linkId: text("link_id")
      .notNull()
      .references(() => paymentLinks.id),
    visitId: text("visit_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payment_link_sessions_visit_idx").on(t.linkId, t.visitId),
    index("payment_link_sessions_link_idx").on(t.linkId, t.sessionId),
  ],
);
