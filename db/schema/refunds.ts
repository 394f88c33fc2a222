import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";
import { ledgerTransactions } from "./ledger";
import { payments } from "./payments";
import { sessions } from "./sessions";

export const refundStatuses = ["pending", "succeeded", "failed"] as const;
export type RefundStatus = (typeof refundStatuses)[number];

/** Why money went back: the merchant asked, fraud screening declined, a duplicate charge, or done at the provider. */
export const refundReasons = [
  "requested_by_merchant",
  "fraud_declined",
  "review_declined",
  "duplicate",
  "provider_initiated",
] as const;
export type RefundReason = (typeof refundReasons)[number];

/**
 * A refund of (part of) a payment (decision 0008). Reserved first (status `pending`, the business
 * balance already debited by `ledger_amount`), then executed at the provider outside any database
 * transaction; a failure at the provider credits the reserve back.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id),
    /** Which provider payment it refunds (a duplicate charge may be another attempt's). */
    provider: text("provider").notNull(),
    providerPaymentId: text("provider_payment_id").notNull(),
    /** Cents given back to the customer. */
    amount: integer("amount").notNull(),
    /** Cents taken from the business balance: the refunded share of the net amount (0 if never credited). */
    ledgerAmount: integer("ledger_amount").notNull().default(0),
    status: text("status", { enum: refundStatuses }).notNull().default("pending"),
    reason: text("reason", { enum: refundReasons }).notNull(),
    /** The merchant's free-text reason (at most 500 characters), also sent to the provider as metadata. */
    note: text("note"),
    providerRefundId: text("provider_refund_id"),
    ledgerTransactionId: text("ledger_transaction_id").references(() => ledgerTransactions.id),
    /** The credit that returned `ledger_amount` when the provider refused the refund. */
    reversalTransactionId: text("reversal_transaction_id").references(() => ledgerTransactions.id),
    failureMessage: text("failure_message"),
    createdAt: createdAt(),
    updatedAt: tsCol("updated_at").notNull().defaultNow(),
    completedAt: tsCol("completed_at"),
  },
  (t) => [
    index("refunds_payment_idx").on(t.paymentId),
    uniqueIndex("refunds_provider_refund_idx")
      .on(t.provider, t.providerRefundId)
      .where(sql`${t.providerRefundId} IS NOT NULL`),
    check(
      "refunds_amount_positive",
      sql`${t.amount} > 0 AND ${t.ledgerAmount} >= 0 AND ${t.ledgerAmount} <= ${t.amount}`,
    ),
  ],
);

export type Refund = typeof refunds.$inferSelect;
