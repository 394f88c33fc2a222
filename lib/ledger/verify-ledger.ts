import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "@/db/client";
import { type DisputeLedgerProblem, disputeLedgerProblems } from "@/lib/disputes/dispute-ledger-problems";
import { payoutLedgerProblems, type PayoutLedgerProblem } from "@/lib/payouts/payout-ledger-problems";

export type LedgerProblem =
  | {
      check: "transaction_unbalanced";
      business_id: string;
      transaction_id: string;
      sum: number;
      entries: number;
    }
  | {
      check: "balance_mismatch";
      business_id: string;
      account_id: string;
      kind: string;
      owner_id: string;
      cached: number;
      entries_sum: number;
    }
  | {
      check: "negative_balance";
      business_id: string;
      account_id: string;
      kind: string;
      owner_id: string;
      balance: number;
    }
  | {
      check: "cross_business_entry";
      business_id: string;
      transaction_id: string;
      entry_id: string;
      account_id: string;
    }
  | PayoutLedgerProblem
  | DisputeLedgerProblem;

export type LedgerReport = {
  ok: boolean;
  business_id: string | null;
  checked: { transactions: number; entries: number; accounts: number };
  problems: LedgerProblem[];
};

/** At most this many problems of each check are listed (the count of checks still fails). */
export const maxListed = 1000;

export const num = (v: unknown) => Number(v);

/** A `WHERE` condition limiting a business id column to the business verified (or none). */
export type Scope = (column: SQL) => SQL;

/**
 * Checks every ledger invariant, on one consistent snapshot (repeatable read, read only):
 * each transaction has at least two entries that sum to zero; each cached balance equals the sum
 * of its entries; no account but `external` and `amount_owed` is negative; entries only touch accounts of their
 * transaction's business; the payout domain and disputes (what is owed) agree with the ledger. Reports, never repairs.
 */
export async function verifyLedger(db: Db, options: { businessId?: string } = {}): Promise<LedgerReport> {
  const businessId = options.businessId ?? null;

  return db.transaction(
    async (tx) => {
      const { problems, checked } = await ledgerProblems(tx, businessId);
      return { ok: problems.length === 0, business_id: businessId, checked, problems };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** Every check over the whole ledger (of one business, or all), in the caller's transaction. */
export async function ledgerProblems(
  tx: Db,
  businessId: string | null,
): Promise<{ problems: LedgerProblem[]; checked: LedgerReport["checked"] }> {
  const scoped: Scope = (column) => (businessId ? sql`${column} = ${businessId}` : sql`TRUE`);
  const problems: LedgerProblem[] = [
    ...(await unbalancedTransactions(tx, scoped)),
    ...(await mismatchedBalances(tx, scoped)),
    ...(await negativeBalances(tx, scoped)),
    ...(await crossBusinessEntries(tx, scoped)),
  ];
  problems.push(...(await payoutLedgerProblems(tx, { businessId, limit: maxListed })));
  problems.push(...(await disputeLedgerProblems(tx, { businessId, limit: maxListed })));
  return { problems, checked: await countChecked(tx, scoped) };
}

async function unbalancedTransactions(tx: Db, scoped: Scope): Promise<LedgerProblem[]> {
  return unbalancedProblems(
    tx,
    sql`SELECT t.id, t.business_id, COALESCE(SUM(e.amount), 0)::text AS total, COUNT(e.id)::int AS n
        FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id
        WHERE ${scoped(sql`t.business_id`)}
        GROUP BY t.id, t.business_id
        HAVING COALESCE(SUM(e.amount), 0) <> 0 OR COUNT(e.id) < 2
        ORDER BY t.id LIMIT ${maxListed}`,
  );
}

/** Runs a query of unbalanced transactions (id, business_id, total, n) and reports each. */
export async function unbalancedProblems(tx: Db, query: SQL): Promise<LedgerProblem[]> {
  const unbalanced = await queryRows<{ id: string; business_id: string; total: unknown; n: unknown }>(tx, query);
  return unbalanced.map((r) => ({
    check: "transaction_unbalanced",
    business_id: r.business_id,
    transaction_id: r.id,
    sum: num(r.total),
    entries: num(r.n),
  }));
}

async function mismatchedBalances(tx: Db, scoped: Scope): Promise<LedgerProblem[]> {
  return mismatchProblems(
    tx,
    sql`SELECT a.id, a.business_id, a.kind, a.owner_id, a.balance::text AS balance, COALESCE(s.total, 0)::text AS total
        FROM ledger_accounts a
        LEFT JOIN (SELECT account_id, SUM(amount) AS total FROM ledger_entries GROUP BY account_id) s
          ON s.account_id = a.id
        WHERE ${scoped(sql`a.business_id`)} AND a.balance <> COALESCE(s.total, 0)
        ORDER BY a.id LIMIT ${maxListed}`,
  );
}

/** Runs a query of accounts whose cached balance differs (id, business_id, kind, owner_id, balance, total). */
export async function mismatchProblems(tx: Db, query: SQL): Promise<LedgerProblem[]> {
  const mismatched = await queryRows<{
    id: string;
    business_id: string;
    kind: string;
    owner_id: string;
    balance: unknown;
    total: unknown;
  }>(tx, query);
  return mismatched.map((r) => ({
    check: "balance_mismatch",
    business_id: r.business_id,
    account_id: r.id,
    kind: r.kind,
    owner_id: r.owner_id,
    cached: num(r.balance),
    entries_sum: num(r.total),
  }));
}

export async function negativeBalances(tx: Db, scoped: Scope): Promise<LedgerProblem[]> {
  const negative = await queryRows<{
    id: string;
    business_id: string;
    kind: string;
    owner_id: string;
    balance: unknown;
  }>(
    tx,
    sql`SELECT a.id, a.business_id, a.kind, a.owner_id, a.balance::text AS balance
        FROM ledger_accounts a
        WHERE ${scoped(sql`a.business_id`)} AND a.kind NOT IN ('external', 'amount_owed') AND a.balance < 0
        ORDER BY a.id LIMIT ${maxListed}`,
  );
  return negative.map((r) => ({
    check: "negative_balance",
    business_id: r.business_id,
    account_id: r.id,
    kind: r.kind,
    owner_id: r.owner_id,
    balance: num(r.balance),
  }));
}

async function crossBusinessEntries(tx: Db, scoped: Scope): Promise<LedgerProblem[]> {
  return crossingProblems(tx, sql`ledger_entries`, scoped(sql`t.business_id`));
}

/**
 * Entries of `entries` (ledger_entries, or a table of the same columns) whose account belongs to
 * another business than their transaction, among those `where` keeps (over `t`, the transaction).
 */
export async function crossingProblems(tx: Db, entries: SQL, where: SQL): Promise<LedgerProblem[]> {
  const crossing = await queryRows<{ id: string; transaction_id: string; account_id: string; business_id: string }>(
    tx,
    sql`SELECT e.id, e.transaction_id, e.account_id, t.business_id
        FROM ${entries} e
        JOIN ledger_transactions t ON t.id = e.transaction_id
        JOIN ledger_accounts a ON a.id = e.account_id
        WHERE ${where} AND a.business_id <> t.business_id
        ORDER BY e.id LIMIT ${maxListed}`,
  );
  return crossing.map((r) => ({
    check: "cross_business_entry",
    business_id: r.business_id,
    transaction_id: r.transaction_id,
    entry_id: r.id,
    account_id: r.account_id,
  }));
}

async function countChecked(tx: Db, scoped: Scope): Promise<LedgerReport["checked"]> {
  const [counts] = await queryRows<{ transactions: unknown; entries: unknown; accounts: unknown }>(
    tx,
    sql`SELECT
          (SELECT COUNT(*) FROM ledger_transactions t WHERE ${scoped(sql`t.business_id`)})::int AS transactions,
          (SELECT COUNT(*) FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
             WHERE ${scoped(sql`t.business_id`)})::int AS entries,
          (SELECT COUNT(*) FROM ledger_accounts a WHERE ${scoped(sql`a.business_id`)})::int AS accounts`,
  );
  return {
    transactions: num(counts?.transactions ?? 0),
    entries: num(counts?.entries ?? 0),
    accounts: num(counts?.accounts ?? 0),
  };
}

/** The report as lines of text, for `npx kassa ledger verify` without --json. */
export function formatLedgerReport(report: LedgerReport): string {
  const scope = report.business_id ? `business ${report.business_id}` : "all businesses";
  const head = `Ledger of ${scope}: ${report.checked.transactions} transactions, ${report.checked.entries} entries, ${report.checked.accounts} accounts checked.`;
  if (report.ok) return `${head}\nOK: every invariant holds.`;
  const lines = report.problems.map((p) => {
    const { check, ...rest } = p;
    return `  ${check}: ${Object.entries(rest)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(" ")}`;
  });
  return `${head}\nFAILED: ${report.problems.length} problem(s):\n${lines.join("\n")}`;
}
