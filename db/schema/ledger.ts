import { sql } from "drizzle-orm";
import { bigint, check, customType, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";

/**
 * The id of the transaction that inserted the row (PostgreSQL's `pg_current_xact_id()`, a 64-bit
 * xid8): the periodic verification checks what committed since its checkpoint (decision 0079).
 * Null on rows older than the column; read as text.
 */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });
const pgSnapshot = customType<{ data: string; driverData: string }>({ dataType: () => "pg_snapshot" });
const insertingXid = () => xid8("xid").default(sql`pg_current_xact_id()`);

export const ledgerAccountKinds = [
  "business_balance",
  "payout_balance",
  "payout_user",
  /** Funds of one payout user held by its pending withdrawals (owner: the payout user). */
  "payout_hold",
  "external",
  /**
   * What the business owes after a withdrawal its balance could not cover (a dispute): kept at or
   * below zero (minus the amount owed); credits to the business balance settle it first (decision 0046).
   */
  "amount_owed",
] as const;
export type LedgerAccountKind = (typeof ledgerAccountKinds)[number];

/**
 * One account per business and kind (per payout user for `payout_user`). `balance` is a cache of
 * the sum of the account's entries, changed only in the transaction that appends them.
 */
export const ledgerAccounts = pgTable(
  "ledger_accounts",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    kind: text("kind", { enum: ledgerAccountKinds }).notNull(),
    /** The payout user for `payout_user` and `payout_hold` accounts; '' otherwise (keeps the unique key simple). */
    ownerId: text("owner_id").notNull().default(""),
    balance: bigint("balance", { mode: "number" }).notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ledger_accounts_owner_idx").on(t.businessId, t.kind, t.ownerId),
    // The outside world may go negative (money in is its debit); what a business owes is negative
    // by nature and never positive; every other account stays at or above zero.
    check(
      "ledger_accounts_balance_nonnegative",
      sql`${t.kind} = 'external' OR (${t.kind} = 'amount_owed' AND ${t.balance} <= 0) OR (${t.kind} <> 'amount_owed' AND ${t.balance} >= 0)`,
    ),
  ],
);

export const ledgerTransactions = pgTable(
  "ledger_transactions",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    /** What moved the money: `payment`, `refund`, `payout_allocation`, `sandbox_credit`, ... */
    kind: text("kind").notNull(),
    /** The id of the object behind it (payment, payout entry, ...). */
    reference: text("reference"),
    createdAt: createdAt(),
    xid: insertingXid(),
  },
  (t) => [
    index("ledger_transactions_business_idx").on(t.businessId, t.createdAt),
    index("ledger_transactions_xid_idx").on(t.xid),
    // What a payment, refund or dispute posted (the dispute check of the ledger verification).
    index("ledger_transactions_reference_idx").on(t.reference),
  ],
);

/** Append-only: never updated or deleted. The entries of one transaction sum to zero. */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: text("id").primaryKey(),
    transactionId: text("transaction_id")
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: text("account_id")
      .notNull()
      .references(() => ledgerAccounts.id),
    /** Signed cents: positive credits the account, negative debits it. */
    amount: bigint("amount", { mode: "number" }).notNull(),
    createdAt: createdAt(),
    xid: insertingXid(),
  },
  (t) => [
    index("ledger_entries_account_idx").on(t.accountId),
    index("ledger_entries_xid_idx").on(t.xid),
    index("ledger_entries_tx_idx").on(t.transactionId),
    check("ledger_entries_amount_nonzero", sql`${t.amount} <> 0`),
  ],
);

export type LedgerAccount = typeof ledgerAccounts.$inferSelect;
export type LedgerTransaction = typeof ledgerTransactions.$inferSelect;
export type LedgerEntry = typeof ledgerEntries.$inferSelect;

/**
 * The periodic verification's checkpoint (decision 0079): one row. Every ledger row visible in
 * `snapshot` (the verifying transaction's) was verified; `full_pass_at` is when the whole ledger last was.
 */
export const ledgerVerifyCheckpoint = pgTable("ledger_verify_checkpoint", {
  id: text("id").primaryKey().default("ledger"),
  snapshot: pgSnapshot("snapshot").notNull(),
  fullPassAt: tsCol("full_pass_at").notNull(),
  verifiedAt: tsCol("verified_at").notNull(),
});

/** Per account, the sum of its entries visible in the checkpoint's snapshot, as last verified. */
export const ledgerVerifiedSums = pgTable("ledger_verified_sums", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => ledgerAccounts.id),
  entriesSum: bigint("entries_sum", { mode: "number" }).notNull(),
});
