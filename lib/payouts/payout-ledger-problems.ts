import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/db/client";
import { businessScope, type BusinessScope } from "@/lib/ledger/business-scope";

export type PayoutLedgerProblem =
  | {
      check: "payout_user_account_missing";
      business_id: string;
      payout_user_id: string;
      kind: "payout_user" | "payout_hold";
    }
  | {
      check: "payout_history_mismatch";
      business_id: string;
      payout_user_id: string;
      balance: number;
      history_sum: number;
    }
  | {
      check: "payout_hold_mismatch";
      business_id: string;
      payout_user_id: string;
      held: number;
      pending_withdrawals: number;
    }
  | { check: "withdrawal_settlement_mismatch"; business_id: string; withdrawal_id: string; status: string };

/**
 * Where the payout tables and the ledger disagree: each payout user's available balance (its
 * `payout_user` account) equals the sum of its history entries, and its held funds (`payout_hold`)
 * equal its pending withdrawals; settled withdrawals have a settling transaction, pending ones not.
 */
export async function payoutLedgerProblems(
  db: Db,
  options: BusinessScope & { limit: number },
): Promise<PayoutLedgerProblem[]> {
  const scope = businessScope(sql`u.business_id`, options);
  const rows = await queryRows<{
    id: string;
    business_id: string;
    available: string | null;
    held: string | null;
    history: string;
    pending: string;
  }>(
    db,
    sql`SELECT * FROM (
          SELECT u.id, u.business_id, ua.balance::text AS available, ha.balance::text AS held,
            COALESCE((SELECT SUM(pe.amount) FROM payout_entries pe WHERE pe.payout_user_id = u.id), 0)::text AS history,
            COALESCE((SELECT SUM(w.amount) FROM payout_withdrawals w
                       WHERE w.payout_user_id = u.id AND w.status = 'pending'), 0)::text AS pending
          FROM payout_users u
          LEFT JOIN ledger_accounts ua
            ON ua.business_id = u.business_id AND ua.kind = 'payout_user' AND ua.owner_id = u.id
          LEFT JOIN ledger_accounts ha
            ON ha.business_id = u.business_id AND ha.kind = 'payout_hold' AND ha.owner_id = u.id
          WHERE ${scope}
        ) x
        WHERE x.available IS NULL OR x.held IS NULL
           OR x.available::bigint <> x.history::numeric OR x.held::bigint <> x.pending::numeric
        ORDER BY x.id LIMIT ${options.limit}`,
  );
  const problems: PayoutLedgerProblem[] = [];
  for (const r of rows) {
    const base = { business_id: r.business_id, payout_user_id: r.id };
    if (r.available === null)
      problems.push({ check: "payout_user_account_missing", ...base, kind: "payout_user" });
    else if (Number(r.available) !== Number(r.history))
      problems.push({
        check: "payout_history_mismatch",
        ...base,
        balance: Number(r.available),
        history_sum: Number(r.history),
      });
    if (r.held === null)
      problems.push({ check: "payout_user_account_missing", ...base, kind: "payout_hold" });
    else if (Number(r.held) !== Number(r.pending))
      problems.push({
        check: "payout_hold_mismatch",
        ...base,
        held: Number(r.held),
        pending_withdrawals: Number(r.pending),
      });
  }

  const withdrawalScope = businessScope(sql`w.business_id`, options);
  const unsettled = await queryRows<{ id: string; business_id: string; status: string }>(
    db,
    sql`SELECT w.id, w.business_id, w.status FROM payout_withdrawals w
        WHERE ${withdrawalScope}
          AND ((w.status = 'pending') <> (w.settle_transaction_id IS NULL)
               OR (w.status = 'pending') <> (w.resolved_at IS NULL))
        ORDER BY w.id LIMIT ${options.limit}`,
  );
  for (const r of unsettled)
    problems.push({
      check: "withdrawal_settlement_mismatch",
      business_id: r.business_id,
      withdrawal_id: r.id,
      status: r.status,
    });
  return problems;
}
