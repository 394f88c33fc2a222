import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { selectStatement, statementPerDb } from "@/db/statement-per-db";
import { ledgerAccounts, ledgerEntries, ledgerTransactions, type LedgerAccountKind } from "@/db/schema";
import { InsufficientFundsError } from "@/lib/errors";
import { businessNowSql } from "@/lib/clock";
import { newId } from "@/lib/ids";

/** An account of the transaction's business: its kind, and its owner for per-user kinds. */
export type LedgerAccountRef = { kind: LedgerAccountKind; ownerId?: string };

/** Signed cents: positive credits the account, negative debits it. */
export type LedgerEntryInput = { account: LedgerAccountRef; amount: number };

export type PostTransactionInput = {
  businessId: string;
  /** What moved the money: `payout_allocation`, `payout_balance_transfer`, `sandbox_credit`, ... */
  kind: string;
  /** The id of the object behind it (payout entry, withdrawal, payment, ...). */
  reference?: string | null;
  entries: LedgerEntryInput[];
};

export type PostedTransaction = {
  transactionId: string;
  /** Balance of each touched account right after this transaction, in the same database transaction. */
  accounts: { id: string; kind: LedgerAccountKind; ownerId: string; balance: number }[];
  balanceOf(kind: LedgerAccountKind, ownerId?: string): number;
};

/** A transaction whose entries do not sum to zero, or are otherwise malformed: a bug, never a 4xx. */
export class UnbalancedTransactionError extends Error {
  override name = "UnbalancedTransactionError";
}

function checkEntries(input: PostTransactionInput): void {
  if (input.entries.length < 2)
    throw new UnbalancedTransactionError("A ledger transaction needs at least two entries");
  let sum = 0;
  for (const entry of input.entries) {
    if (!Number.isSafeInteger(entry.amount) || entry.amount === 0)
      throw new UnbalancedTransactionError(
        `Ledger entry amounts are non-zero integer cents, got ${entry.amount}`,
      );
    sum += entry.amount;
  }
  if (sum !== 0) throw new UnbalancedTransactionError(`Ledger entries must sum to zero, got ${sum}`);
}

const accountKey = (ref: LedgerAccountRef) => `${ref.kind}\u0000${ref.ownerId ?? ""}`;

/** Cents the business owes (a positive number), locking its `amount_owed` account; 0 without one. */
async function lockAmountOwed(tx: Db, businessId: string): Promise<number> {
  const [row] = await amountOwedRow(tx, { businessId });
  return row ? -Number(row.balance) : 0;
}

const p = (name: string) => sql.placeholder(name);
// Built once: every credit to a business balance (each payment) takes this lock and these updates.
const amountOwedRow = selectStatement("kassa_ledger_amount_owed", (db) =>
  db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.businessId, p("businessId")),
        eq(ledgerAccounts.kind, "amount_owed"),
        eq(ledgerAccounts.ownerId, ""),
      ),
    )
    .for("update"),
);

/**
 * Credits settle what the business owes first (decision 0046): when a transaction credits the
 * business balance while an amount is owed, the part that pays it off goes to `amount_owed`.
 */
async function settleOwedFirst(tx: Db, input: PostTransactionInput): Promise<LedgerEntryInput[]> {
  const credit = input.entries
    .filter((entry) => entry.account.kind === "business_balance")
    .reduce((sum, entry) => sum + entry.amount, 0);
  if (credit <= 0 || input.entries.some((entry) => entry.account.kind === "amount_owed"))
    return input.entries;
  const owed = await lockAmountOwed(tx, input.businessId);
  const settled = Math.min(credit, owed);
  if (settled <= 0) return input.entries;
  return [
    ...input.entries,
    { account: { kind: "business_balance" }, amount: -settled },
    { account: { kind: "amount_owed" }, amount: settled },
  ];
}

/** The condition a new balance must meet: none for `external`, at most zero for `amount_owed`, else at least zero. */
type BalanceCondition = "none" | "at_most_zero" | "at_least_zero";
const conditionOf = (kind: LedgerAccountKind): BalanceCondition =>
  kind === "external" ? "none" : kind === "amount_owed" ? "at_most_zero" : "at_least_zero";

/** An account's balance moved by `amount` where its condition holds, one statement per condition, built once. */
const moveBalance = Object.fromEntries(
  (["none", "at_most_zero", "at_least_zero"] as const).map((condition) => {
    const amount = sql`${p("amount")}::bigint`;
    const holds =
      condition === "none"
        ? sql`TRUE`
        : condition === "at_most_zero"
          ? sql`${ledgerAccounts.balance} + ${amount} <= 0`
          : sql`${ledgerAccounts.balance} + ${amount} >= 0`;
    return [
      condition,
      statementPerDb(`kassa_ledger_move_${condition}`, (db) =>
        db
          .update(ledgerAccounts)
          .set({ balance: sql`${ledgerAccounts.balance} + ${amount}` })
          .where(
            and(
              eq(ledgerAccounts.businessId, p("businessId")),
              eq(ledgerAccounts.kind, p("kind")),
              eq(ledgerAccounts.ownerId, p("ownerId")),
              holds,
            ),
          )
          .returning({ id: ledgerAccounts.id, balance: ledgerAccounts.balance }),
      ),
    ];
  }),
) as Record<BalanceCondition, ReturnType<typeof statementPerDb<{ id: string; balance: number }[]>>>;

/**
 * The only way a balance changes. Appends one ledger transaction whose entries sum to zero and
 * moves each touched account's cached balance by a conditional UPDATE in the same database
 * transaction: a debit that would take a non-external account below zero matches no row and
 * raises InsufficientFundsError (the CHECK on ledger_accounts backs this up). A credit to the
 * business balance first settles what the business owes (settleOwedFirst).
 *
 * Given a transaction it runs in a savepoint, so a failure leaves the caller's transaction as it
 * was (no half-applied entries even when the caller catches the error). Accounts are updated in
 * one global order (kind, owner) so concurrent transactions never deadlock on each other.
 */
export async function postTransaction(db: Db, input: PostTransactionInput): Promise<PostedTransaction> {
  checkEntries(input);
  return db.transaction(async (tx) => {
    const entries = await settleOwedFirst(tx, input);
    const net = new Map<string, { ref: LedgerAccountRef; amount: number }>();
    for (const entry of entries) {
      const key = accountKey(entry.account);
      const current = net.get(key);
      if (current) current.amount += entry.amount;
      else net.set(key, { ref: entry.account, amount: entry.amount });
    }
    const ordered = [...net.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const accounts: PostedTransaction["accounts"] = [];
    const ids = new Map<string, string>();
    for (const [key, { ref, amount }] of ordered) {
      const ownerId = ref.ownerId ?? "";
      const where = and(
        eq(ledgerAccounts.businessId, input.businessId),
        eq(ledgerAccounts.kind, ref.kind),
        eq(ledgerAccounts.ownerId, ownerId),
      );
      const [row] = await moveBalance[conditionOf(ref.kind)](tx).execute({
        businessId: input.businessId,
        kind: ref.kind,
        ownerId,
        amount,
      });
      if (!row) {
        const [exists] = await tx
          .select({ id: ledgerAccounts.id })
          .from(ledgerAccounts)
          .where(where)
          .limit(1);
        if (!exists)
          throw new Error(`No ledger account ${ref.kind}/${ownerId} for business ${input.businessId}`);
        throw new InsufficientFundsError(ref.kind, ownerId);
      }
      ids.set(key, row.id);
      accounts.push({ id: row.id, kind: ref.kind, ownerId, balance: Number(row.balance) });
    }
    const transactionId = await appendEntries(tx, input, entries, ids);
    return {
      transactionId,
      accounts,
      balanceOf(kind: LedgerAccountKind, ownerId = "") {
        const account = accounts.find((a) => a.kind === kind && a.ownerId === ownerId);
        if (!account)
          throw new Error(`Account ${kind}/${ownerId} is not part of transaction ${transactionId}`);
        return account.balance;
      },
    };
  });
}

async function appendEntries(
  tx: Db,
  input: PostTransactionInput,
  entries: LedgerEntryInput[],
  ids: Map<string, string>,
): Promise<string> {
  const transactionId = newId("ledgerTransaction");
  // Stamped on the business's clock: a sandbox business's clock may be ahead of real time.
  const [posted] = await tx
    .insert(ledgerTransactions)
    .values({
      id: transactionId,
      businessId: input.businessId,
      kind: input.kind,
      reference: input.reference ?? null,
      createdAt: businessNowSql(input.businessId),
    })
    .returning({ createdAt: ledgerTransactions.createdAt });
  await tx.insert(ledgerEntries).values(
    entries.map((entry) => ({
      id: newId("ledgerEntry"),
      transactionId,
      accountId: ids.get(accountKey(entry.account))!,
      amount: entry.amount,
      createdAt: posted!.createdAt,
    })),
  );
  return transactionId;
}
