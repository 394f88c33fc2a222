import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";
import { payments } from "./payments";
import type { CustomerDetails } from "./payments";
import { sessions, type Metadata, type SessionItem } from "./sessions";

export const subscriptionStatuses = ["active", "past_due", "canceled"] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

export const subscriptionActors = ["api", "manager", "admin", "payer", "provider", "system"] as const;
export type SubscriptionActor = (typeof subscriptionActors)[number];

/**
 * A recurring plan sold by a signup session (decision 0013). Created in the transaction that
 * records the first payment's success; charged afterwards by a subscription on the business's own
 * Stripe account (`provider_subscription_id`), whose events keep this row in step.
 *
 * Cancel and resume never call Stripe inside a transaction: they claim the row (`pending_op`,
 * a token and a time), call Stripe, then apply the result only if the claim is still theirs.
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    status: text("status", { enum: subscriptionStatuses }).notNull(),
    /** Cents: the business's price per period (the signup session's amount). */
    amount: integer("amount").notNull(),
    /** Cents charged at each renewal: the first charge without one-time fees (screening). */
    unitAmount: integer("unit_amount").notNull(),
    /** Kassa's fees in cents on each renewal charge (unit_amount - what the business receives). */
    unitFees: integer("unit_fees").notNull(),
    currency: text("currency").notNull(),
    interval: text("interval", { enum: ["day", "week", "month", "year"] }).notNull(),
    intervalCount: integer("interval_count").notNull(),
    customer: text("customer"),
    customerEmail: text("customer_email"),
    orderId: text("order_id").notNull(),
    items: jsonb("items").$type<SessionItem[]>().notNull(),
    metadata: jsonb("metadata").$type<Metadata>().notNull(),
    paymentMethod: text("payment_method").notNull(),
    provider: text("provider").notNull(),
    providerSubscriptionId: text("provider_subscription_id"),
    providerCustomerId: text("provider_customer_id"),
    providerPaymentMethodId: text("provider_payment_method_id"),
    /** The payer's billing details from the signup payment (the `customer` of renewal webhooks). */
    payerDetails: jsonb("payer_details").$type<CustomerDetails>(),
    cyclesCount: integer("cycles_count").notNull().default(1),
    /** Start of cycle 1 (signup, on the business's clock): cycle numbers are counted from it. */
    periodAnchor: tsCol("period_anchor").notNull(),
    currentPeriodEnd: tsCol("current_period_end"),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    canceledAt: tsCol("canceled_at"),
    canceledBy: text("canceled_by", { enum: subscriptionActors }),
    cancelRequestedBy: text("cancel_requested_by", { enum: subscriptionActors }),
    cancellationReason: text("cancellation_reason"),
    initialSessionId: text("initial_session_id")
      .notNull()
      .unique()
      .references(() => sessions.id),
    initialPaymentId: text("initial_payment_id")
      .notNull()
      .references(() => payments.id),
    /** SHA-256 of the management token (lib/subscriptions/management-token.ts); never the token. */
    managementTokenDigest: text("management_token_digest").notNull().unique(),
    /** A cancel or resume between its claim and its result (see above). */
    pendingOp: text("pending_op"),
    pendingOpToken: text("pending_op_token"),
    pendingOpAt: tsCol("pending_op_at"),
    /** Unused: every inbound event re-reads Stripe (decision 0013); kept for a later optimisation. */
    providerSyncedAt: integer("provider_synced_at"),
    /** Bumped on every change: a reader can tell whether the row moved since it read it. */
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: tsCol("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("subscriptions_business_idx").on(t.businessId, t.id),
    index("subscriptions_business_customer_idx").on(t.businessId, t.customer),
    uniqueIndex("subscriptions_provider_idx").on(t.provider, t.providerSubscriptionId),
    check("subscriptions_cycles_positive", sql`${t.cyclesCount} >= 1`),
  ],
);

export type Subscription = typeof subscriptions.$inferSelect;
export type NewSubscription = typeof subscriptions.$inferInsert;

/**
 * One renewal cycle of a subscription, keyed by the provider's invoice: the cycle number it was
 * given, the renewal session and payment it made, and whether its failure was announced. Retries of
 * the same invoice land on the same row (same cycle, same order_id).
 */
export const subscriptionCycles = pgTable(
  "subscription_cycles",
  {
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    cycle: integer("cycle").notNull(),
    providerInvoiceId: text("provider_invoice_id").notNull(),
    sessionId: text("session_id").references(() => sessions.id),
    status: text("status", { enum: ["open", "paid", "failed", "void"] }).notNull(),
    failureNotified: boolean("failure_notified").notNull().default(false),
    periodEnd: tsCol("period_end"),
    createdAt: createdAt(),
    updatedAt: tsCol("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("subscription_cycles_invoice_idx").on(t.subscriptionId, t.providerInvoiceId),
    uniqueIndex("subscription_cycles_cycle_idx").on(t.subscriptionId, t.cycle),
  ],
);

export type SubscriptionCycle = typeof subscriptionCycles.$inferSelect;
