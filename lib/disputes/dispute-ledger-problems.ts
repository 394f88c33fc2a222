import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/db/client";
import { businessScope, type BusinessScope } from "@/lib/ledger/business-scope";

export type DisputeLedgerProblem =
  | { check: "amount_owed_positive"; business_id: string; account_id: string; balance: number }
  | { check: "owed_while_balance"; business_id: string; owed: number; balance: number }
  | {
      check: "dispute_ledger_mismatch";
      business_id: string;
      dispute_id: string;
      booked: number;
      posted: number;
    };

/**
 * Where disputes and the ledger disagree (decision 0046): an `amount_owed` account is never
 * above zero; while an amount is owed the business balance is zero (credits settle the debt
 * first); and the money each dispute moved in the ledger (its `external` entries) is exactly the
 * opposite of the provider's balance transactions it booked.
 */
export async function disputeLedgerProblems(
  db: Db,
  options: BusinessScope & { limit: number },
): Promise<DisputeLedgerProblem[]> {
  const scoped = (column: ReturnType<typeof sql>) => businessScope(column, options);
  const problems: DisputeLedgerProblem[] = [];
  const positive = await queryRows<{ id: string; business_id: string; balance: string }>(
    db,
    sql`SELECT a.id, a.business_id, a.balance::text AS balance FROM ledger_accounts a
        WHERE ${scoped(sql`a.business_id`)} AND a.kind = 'amount_owed' AND a.balance > 0
        ORDER BY a.id LIMIT ${options.limit}`,
  );
  for (const r of positive)
    problems.push({
      check: "amount_owed_positive",
      business_id: r.business_id,
      account_id: r.id,
      balance: Number(r.balance),
    });
  const both = await queryRows<{ business_id: string; owed: string; balance: string }>(
    db,
    sql`SELECT o.business_id, (-o.balance)::text AS owed, b.balance::text AS balance
        FROM ledger_accounts o JOIN ledger_accounts b
          ON b.business_id = o.business_id AND b.kind = 'business_balance' AND b.owner_id = ''
        WHERE ${scoped(sql`o.business_id`)} AND o.kind = 'amount_owed' AND o.balance < 0 AND b.balance > 0
        ORDER BY o.business_id LIMIT ${options.limit}`,
  );
  for (const r of both)
    problems.push({
      check: "owed_while_balance",
      business_id: r.business_id,
      owed: Number(r.owed),
      balance: Number(r.balance),
    });
  const mismatched = await queryRows<{ id: string; business_id: string; booked: string; posted: string }>(
    db,
    sql`SELECT d.id, d.business_id,
          (SELECT COALESCE(SUM((m->>'amount')::bigint), 0) FROM jsonb_array_elements(d.booked) m)::text AS booked,
          (SELECT COALESCE(SUM(e.amount), 0) FROM ledger_transactions t
             JOIN ledger_entries e ON e.transaction_id = t.id
             JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'external'
           WHERE t.reference = d.id AND t.kind IN ('dispute_withdrawal', 'dispute_reinstatement'))::text AS posted
        FROM disputes d WHERE ${scoped(sql`d.business_id`)}
        ORDER BY d.id`,
  );
  for (const r of mismatched) {
    // A withdrawal (negative net) sends money out: a positive external entry, and back.
    if (Number(r.booked) + Number(r.posted) === 0) continue;
    problems.push({
      check: "dispute_ledger_mismatch",
      business_id: r.business_id,
      dispute_id: r.id,
      booked: Number(r.booked),
      posted: Number(r.posted),
    });
    if (problems.length >= options.limit * 3) break;
  }
  return problems;
}
