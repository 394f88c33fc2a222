import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";
import { sessions } from "./sessions";

/** Stripe's dispute statuses (`warning_*` are inquiries: no funds withdrawn yet). */
export const disputeStatuses = [
  "warning_needs_response",
  "warning_under_review",
  "warning_closed",
  "needs_response",
  "under_review",
  "won",
  "lost",
  "prevented",
] as const;
export type DisputeStatus = (typeof disputeStatuses)[number];

/** Balance transactions of a dispute already posted to the ledger, by the provider's id. */
export type BookedDisputeMoney = { id: string; amount: number; ledgerTransactionId: string }[];

/**
 * A dispute (chargeback or inquiry) of one payment, as last read from the provider: Kassa's copy,
 * kept in step by `charge.dispute.*` events (each re-reads the provider). `booked` holds the
 * provider's balance transactions already posted to the ledger, so each moves money once.
 */
export const disputes = pgTable(
  "disputes",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id),
    provider: text("provider").notNull(),
    providerDisputeId: text("provider_dispute_id").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    reason: text("reason").notNull(),
    status: text("status", { enum: disputeStatuses }).notNull(),
    evidenceDueBy: tsCol("evidence_due_by"),
    /** The provider's evidence fields as last read (text, and file ids). */
    evidence: jsonb("evidence").$type<Record<string, string>>().notNull().default({}),
    submissionCount: integer("submission_count").notNull().default(0),
    booked: jsonb("booked").$type<BookedDisputeMoney>().notNull().default([]),
    /** Whether the merchant was told it opened, and of its outcome (webhook, mail). */
    openedNotifiedAt: tsCol("opened_notified_at"),
    closedNotifiedAt: tsCol("closed_notified_at"),
    closedAt: tsCol("closed_at"),
    /**
     * An answer (evidence or acceptance) on its way to the provider, until this time: one answer at
     * a time per dispute, the next waits for it and is read against its result. A crashed answer's
     * claim lapses. Null when none is in flight.
     */
    answerClaimedUntil: tsCol("answer_claimed_until"),
    createdAt: createdAt(),
    updatedAt: tsCol("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("disputes_provider_idx").on(t.businessId, t.provider, t.providerDisputeId),
    index("disputes_business_idx").on(t.businessId, t.id),
    index("disputes_session_idx").on(t.sessionId),
  ],
);

export type Dispute = typeof disputes.$inferSelect;
