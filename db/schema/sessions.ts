import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";
import { paymentMethods } from "./payment-methods";

export type SessionItem = { name: string; quantity: number; price: number };
export type Metadata = Record<string, string | number | boolean | null>;
export type CustomerPrefill = { email?: string; name?: string; phone?: string };

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    /** Cents; for a subscription, the price of one period. */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    customer: text("customer").notNull(),
    customerEmail: text("customer_email"),
    customerPrefill: jsonb("customer_prefill").$type<CustomerPrefill>(),
    orderId: text("order_id").notNull(),
    description: text("description"),
    items: jsonb("items").$type<SessionItem[]>().notNull(),
    metadata: jsonb("metadata").$type<Metadata>().notNull(),
    /** Forced method (`paymentMethodId`); only it is then offered. */
    paymentMethodId: text("payment_method_id").references(() => paymentMethods.id),
    subscriptionInterval: text("subscription_interval", { enum: ["day", "week", "month", "year"] }),
    subscriptionIntervalCount: integer("subscription_interval_count"),
    /** IP the payer must pay from (secret key only); null means no IP validation. */
    requiredIp: text("required_ip"),
    /** IP of the client that created the session with a public key. */
    creatorIp: text("creator_ip"),
    keyKind: text("key_kind", { enum: ["secret", "public"] }).notNull(),
    /** The payer is a business (`is_company`): charged the methods' company fees (decision 0040). */
    isCompany: boolean("is_company").notNull().default(false),
    expiresAt: tsCol("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("sessions_business_order_idx").on(t.businessId, t.orderId),
    index("sessions_business_created_idx").on(t.businessId, t.createdAt),
    // The payments list and the CSV export walk a business's sessions in id order (newest first or last).
    index("sessions_business_id_idx").on(t.businessId, t.id),
    // The payments list's and the export's search: a piece of an order id or e-mail (ILIKE '%…%',
    // trigram indexes, pg_trgm) and a customer id exactly (decision 0082).
    index("sessions_order_id_trgm_idx").using("gin", t.orderId.op("gin_trgm_ops")),
    index("sessions_customer_email_trgm_idx").using("gin", t.customerEmail.op("gin_trgm_ops")),
    index("sessions_business_customer_idx").on(t.businessId, t.customer),
  ],
);

export type Session = typeof sessions.$inferSelect;

/**
 * The order ids of plans (sessions with a subscription), one key each, kept by a trigger on
 * `sessions` (migration 0029). A one-off session `A-<n>` looks for a plan `A` here (decision 0056,
 * second pass): a table with one index gives the look a plan cached once per connection that can
 * be nothing but that index (the function turns sequential scans off), where `sessions`, with
 * several indexes on `business_id`, needed a plan made at every call.
 */
export const planOrderIds = pgTable(
  "plan_order_ids",
  {
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    orderId: text("order_id").notNull(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.orderId] })],
);
