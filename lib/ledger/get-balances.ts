import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { ledgerAccounts } from "@/db/schema";
import type { BalanceView } from "@/lib/payments/payment-schemas";

/** The business balance and payout balance in cents (zero before any movement). */
export async function getBalances(db: Db, businessId: string): Promise<BalanceView> {
  const rows = await db
    .select({ kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.businessId, businessId),
        inArray(ledgerAccounts.kind, ["business_balance", "payout_balance"]),
      ),
    );
  const of = (kind: string) => rows.find((r) => r.kind === kind)?.balance ?? 0;
  return { balance: of("business_balance"), payout_balance: of("payout_balance") };
}
