import { sql } from "drizzle-orm";
import { bigint, check, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";
import { ledgerTransactions } from "./ledger";

export const payoutUserStatuses = ["active", "inactive"] as const;
export type PayoutUserStatus = (typeof payoutUserStatuses)[number];

/**
 * A payout user: identified by e-mail, unique per business and case-insensitive. Its balance is
 * its `payout_user` ledger account (and `payout_hold` for pending withdrawals), never a column here.
 */
export const payoutUsers = pgTable(
  "payout_users",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    /** As first given, for display. */
    email: text("email").notNull(),
    /** Lower-cased: the identity (same e-mail in another case = same user). */
    emailNormalized: text("email_normalized").notNull(),
    /** SHA-256 of the hash, hex: what authentication looks up (decision 0005). */
    hashDigest: text("hash_digest").notNull(),
    /** The hash itself, encrypted (lib/crypto), so POST /payout/create can return it again. */
    hashEnc: text("hash_enc").notNull(),
    /** First characters of the hash, for display. */
    hashPrefix: text("hash_prefix").notNull(),
    status: text("status", { enum: payoutUserStatuses }).notNull().default("active"),
    createdAt: createdAt(),
    deactivatedAt: tsCol("deactivated_at"),
  },
  (t) => [
    uniqueIndex("payout_users_business_email_idx").on(t.businessId, t.emailNormalized),
    uniqueIndex("payout_users_hash_digest_idx").on(t.hashDigest),
    index("payout_users_business_id_idx").on(t.businessId, t.id),
    check("payout_users_status_valid", sql`${t.status} IN ('active', 'inactive')`),
  ],
);

export const withdrawalStatuses = ["pending", "completed", "rejected", "canceled"] as const;
export type WithdrawalStatus = (typeof withdrawalStatuses)[number];

/** Who settled a withdrawal: the merchant (API or dashboard), service support, or the user (cancel). */
export const withdrawalActors = ["merchant", "support", "payout_user"] as const;
export type WithdrawalActor = (typeof withdrawalActors)[number];

/**
 * A payout user's request to be paid `amount` at `destination`. While pending the funds sit in the
 * user's `payout_hold` account; completed sends them to `external`, rejected or canceled returns them.
 */
export const payoutWithdrawals = pgTable(
  "payout_withdrawals",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    payoutUserId: text("payout_user_id")
      .notNull()
      .references(() => payoutUsers.id),
    /** Cents, positive. */
    amount: bigint("amount", { mode: "number" }).notNull(),
    /** Where the user wants the money (IBAN, PayPal address, wallet...): free text for the payer. */
    destination: text("destination").notNull(),
    /** The payout user's own reference, if any. */
    reference: text("reference"),
    status: text("status", { enum: withdrawalStatuses }).notNull().default("pending"),
    /** Why it was rejected or canceled. */
    statusReason: text("status_reason"),
    /** The merchant's reference of the transfer that completed it (bank reference, ...). */
    settlementReference: text("settlement_reference"),
    resolvedBy: text("resolved_by", { enum: withdrawalActors }),
    holdTransactionId: text("hold_transaction_id")
      .notNull()
      .references(() => ledgerTransactions.id),
    settleTransactionId: text("settle_transaction_id").references(() => ledgerTransactions.id),
    createdAt: createdAt(),
    resolvedAt: tsCol("resolved_at"),
  },
  (t) => [
    index("payout_withdrawals_user_idx").on(t.payoutUserId, t.id),
    index("payout_withdrawals_business_status_idx").on(t.businessId, t.status, t.id),
    check("payout_withdrawals_amount_positive", sql`${t.amount} > 0`),
    check(
      "payout_withdrawals_status_valid",
      sql`${t.status} IN ('pending', 'completed', 'rejected', 'canceled')`,
    ),
  ],
);

export const payoutEntryTypes = ["allocation", "withdrawal", "withdrawal_returned"] as const;
export type PayoutEntryType = (typeof payoutEntryTypes)[number];

/**
 * A payout user's history, append-only: one row per change of its available balance (an
 * allocation, a withdrawal request, funds returned by a rejected or canceled withdrawal).
 */
export const payoutEntries = pgTable(
  "payout_entries",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    payoutUserId: text("payout_user_id")
      .notNull()
      .references(() => payoutUsers.id),
    type: text("type", { enum: payoutEntryTypes }).notNull(),
    /** Signed cents: the change of the user's available balance. */
    amount: bigint("amount", { mode: "number" }).notNull(),
    /** The user's available balance right after this entry. */
    balanceAfter: bigint("balance_after", { mode: "number" }).notNull(),
    withdrawalId: text("withdrawal_id").references(() => payoutWithdrawals.id),
    ledgerTransactionId: text("ledger_transaction_id")
      .notNull()
      .references(() => ledgerTransactions.id),
    createdAt: createdAt(),
  },
  (t) => [
    index("payout_entries_user_idx").on(t.payoutUserId, t.id),
    check("payout_entries_amount_nonzero", sql`${t.amount} <> 0`),
    check("payout_entries_balance_nonnegative", sql`${t.balanceAfter} >= 0`),
  ],
);

export type PayoutUser = typeof payoutUsers.$inferSelect;
export type PayoutWithdrawal = typeof payoutWithdrawals.$inferSelect;
export type PayoutEntry = typeof payoutEntries.$inferSelect;
