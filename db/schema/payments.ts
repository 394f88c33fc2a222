import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";
import { sessions } from "./sessions";

export const paymentStatuses = [
  "succeeded",
  "failed",
  "pending",
  "processing",
  "pending_review",
  "declined",
  "expired",
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export type CustomerDetails = {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  address?: {
    line1?: string | null;
    line2?: string | null;
    city?: string | null;
    state?: string | null;
    postal_code?: string | null;
    country?: string | null;
  } | null;
};

export type PaymentDetails = {
  type: string;
  card?: { brand: string; last4: string; exp_month: string; exp_year: string; country: string | null };
};

/** The payment of a session: at most one per session, updated as attempts progress. */
export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .unique()
      .references(() => sessions.id),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    status: text("status", { enum: paymentStatuses }).notNull(),
    /** Gross cents the customer pays (session amount, plus fees when passed to the customer). */
    amount: integer("amount").notNull(),
    fees: integer("fees"),
    netAmount: integer("net_amount"),
    paymentMethod: text("payment_method"),
    provider: text("provider"),
    providerPaymentId: text("provider_payment_id"),
    customerDetails: jsonb("customer_details").$type<CustomerDetails>(),
    paymentDetails: jsonb("payment_details").$type<PaymentDetails>(),
    ip: text("ip"),
    country: text("country"),
    userAgent: text("user_agent"),
    /** The attempt (payment_attempts) this row reflects: the latest one. */
    attemptId: text("attempt_id"),
    /** The hosted checkout's language when the payer paid there (its receipts speak it); null: unknown. */
    locale: text("locale"),
    /** The provider's customer (Stripe `cus_…`) created for this payment. */
    providerCustomerId: text("provider_customer_id"),
    /** Redirect methods: cents received so far (an underpaid payment stays `pending`). */
    amountReceived: integer("amount_received"),
    /** Cents refunded or being refunded (pending refunds included): never above `amount`. */
    refundedAmount: integer("refunded_amount").notNull().default(0),
    /** The one-time fraud screening fee included in `amount` and `fees`. */
    screeningFee: integer("screening_fee").notNull().default(0),
    /** Fraud screening: allow, review or decline, and the rules that decided it. */
    fraudDecision: text("fraud_decision", { enum: ["allow", "review", "decline"] }),
    fraudReasons: jsonb("fraud_reasons").$type<string[]>(),
    /** The provider's risk signal (Stripe Radar `outcome.risk_level`). */
    riskLevel: text("risk_level"),
    /** Why the last attempt failed (`card_declined/insufficient_funds`, ...), for the page and support. */
    failureCode: text("failure_code"),
    failureMessage: text("failure_message"),
    /** The ledger transaction that credited the business: set once, never twice. */
    creditTransactionId: text("credit_transaction_id"),
    reviewedAt: tsCol("reviewed_at"),
    completedAt: tsCol("completed_at"),
    createdAt: createdAt(),
    updatedAt: tsCol("updated_at").notNull().defaultNow(),
  },
  (t) => [
    // A business's payments, and in session order: the CSV export's pages join them to the
    // business's sessions (walked in id order) in one ordered pass (decision 0057).
    index("payments_business_session_idx").on(t.businessId, t.sessionId),
    // The overview: a business's succeeded (or waiting) payments by completion day, its latest changes.
    index("payments_business_status_completed_idx").on(
      t.businessId,
      t.status,
      sql`coalesce(${t.completedAt}, ${t.createdAt})`,
    ),
    index("payments_business_updated_idx").on(t.businessId, t.updatedAt, t.id),
    // The payments list's search by a piece of the payer's e-mail (decision 0082).
    index("payments_customer_email_trgm_idx").using(
      "gin",
      sql`(${t.customerDetails}->>'email') gin_trgm_ops`,
    ),
    check(
      "payments_refunded_within_amount",
      sql`${t.refundedAmount} >= 0 AND ${t.refundedAmount} <= ${t.amount}`,
    ),
  ],
);

export type Payment = typeof payments.$inferSelect;
