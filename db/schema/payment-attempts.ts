import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";
import type { CustomerDetails, PaymentDetails } from "./payments";
import { payments } from "./payments";
import { sessions } from "./sessions";

export const attemptStatuses = [
  /** Written before any provider call; the provider may or may not have been reached yet. */
  "started",
  /** The card needs 3-D Secure: waiting for the customer's challenge. */
  "requires_action",
  /** Redirect method started: waiting for the customer at the provider (or underpaid). */
  "pending",
  "succeeded",
  "failed",
  "declined",
  /** Replaced by a newer attempt (an abandoned challenge, a stale start). */
  "abandoned",
] as const;
export type AttemptStatus = (typeof attemptStatuses)[number];
export const finalAttemptStatuses: readonly AttemptStatus[] = [
  "succeeded",
  "failed",
  "declined",
  "abandoned",
];

export type FraudVerdict = { decision: "allow" | "review" | "decline"; reasons: string[] };

/**
 * One try at paying a session (decision 0008). Written before the provider is called, so a crash
 * between the call and the recording of its outcome loses nothing: the provider's events (which
 * carry the attempt id in their metadata) or a later read settle it. Velocity rules count these.
 */
export const paymentAttempts = pgTable(
  "payment_attempts",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id),
    status: text("status", { enum: attemptStatuses }).notNull().default("started"),
    /** Catalogue id (`stripe_credit`), its provider and its method without prefix. */
    paymentMethodId: text("payment_method_id").notNull(),
    provider: text("provider").notNull(),
    method: text("method").notNull(),
    via: text("via").notNull(),
    /** Gross cents charged, Kassa's fees (screening fee included), and what the business gets. */
    amount: integer("amount").notNull(),
    fees: integer("fees").notNull(),
    netAmount: integer("net_amount").notNull(),
    screeningFee: integer("screening_fee").notNull().default(0),
    providerPaymentId: text("provider_payment_id"),
    providerCustomerId: text("provider_customer_id"),
    providerPaymentMethodId: text("provider_payment_method_id"),
    /** Where the customer goes next: the redirect provider's page or the 3-D Secure challenge. */
    nextUrl: text("next_url"),
    cardFingerprint: text("card_fingerprint"),
    email: text("email"),
    ip: text("ip"),
    country: text("country"),
    userAgent: text("user_agent"),
    customerDetails: jsonb("customer_details").$type<CustomerDetails>(),
    paymentDetails: jsonb("payment_details").$type<PaymentDetails>(),
    /** Screening before the charge; the provider's risk signal is combined with it after. */
    fraud: jsonb("fraud").$type<FraudVerdict>(),
    riskLevel: text("risk_level"),
    failureCode: text("failure_code"),
    failureMessage: text("failure_message"),
    /** The process (instances.id) that opened the attempt: when it dies, the reconciler settles it. */
    instanceId: text("instance_id"),
    createdAt: createdAt(),
    updatedAt: tsCol("updated_at").notNull().defaultNow(),
    completedAt: tsCol("completed_at"),
  },
  (t) => [
    index("payment_attempts_session_idx").on(t.sessionId),
    index("payment_attempts_business_created_idx").on(t.businessId, t.createdAt),
    // The reconciler's scan: attempts still `started` (lib/payments/reconcile-attempts.ts).
    index("payment_attempts_started_idx")
      .on(t.updatedAt)
      .where(sql`${t.status} = 'started'`),
    uniqueIndex("payment_attempts_provider_payment_idx")
      .on(t.provider, t.providerPaymentId)
      .where(sql`${t.providerPaymentId} IS NOT NULL`),
    check(
      "payment_attempts_amounts_valid",
      sql`${t.amount} > 0 AND ${t.fees} >= 0 AND ${t.netAmount} = ${t.amount} - ${t.fees}`,
    ),
  ],
);

export type PaymentAttempt = typeof paymentAttempts.$inferSelect;
