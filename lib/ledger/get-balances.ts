import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { ledgerAccounts } from "@/db/schema";
import type { BalanceView } from "@/lib/payments/payment-schemas";

/** The business balance and payout balance in cents (zero before any movement): `GET /balance`, exactly. */
export async function getBalances(db: Db, businessId: string): Promise<BalanceView> {
  const { balance, payoutBalance } = await getBalanceSummary(db, businessId);
  return { balance, payout_balance: payoutBalance };
}

/** What the dashboard shows of a business's money: its two balances and what it owes after disputes. */
export type BalanceSummary = {
  balance: number;
  payoutBalance: number;
  /**
   * Cents the business owes (a positive number; 0 when nothing): a dispute's withdrawal the
   * balance could not cover (decision 0046). Incoming payments settle it before the balance grows.
   */
  amountOwed: number;
};

/**
 * The balances with the amount owed beside them, for the dashboard. The API's `GET /balance`
 * keeps the interface's two fields (getBalances); the debt is not one of them.
 */
export async function getBalanceSummary(db: Db, businessId: string): Promise<BalanceSummary> {
  const rows = await db
    .select({ kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.businessId, businessId),
        eq(ledgerAccounts.ownerId, ""),
        inArray(ledgerAccounts.kind, ["business_balance", "payout_balance", "amount_owed"]),
      ),
    );
  const of = (kind: string) => Number(rows.find((r) => r.kind === kind)?.balance ?? 0);
  return {
    balance: of("business_balance"),
    payoutBalance: of("payout_balance"),
    amountOwed: Math.max(0, -of("amount_owed")),
  };
}
