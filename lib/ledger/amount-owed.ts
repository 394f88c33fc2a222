import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { ledgerAccounts } from "@/db/schema";
import { ConflictError } from "@/lib/errors";
import { formatMoney } from "@/lib/money";
import { openAccounts } from "./open-accounts";
import { type PostedTransaction, postTransaction } from "./post-transaction";

/**
 * How a withdrawal of `amount` cents splits (decision 0046): what the business balance covers,
 * and the shortfall carried as an amount owed. Pure: table-tested without a database.
 */
export function splitWithdrawal(balance: number, amount: number): { fromBalance: number; owed: number } {
  const fromBalance = Math.max(0, Math.min(balance, amount));
  return { fromBalance, owed: amount - fromBalance };
}

async function lockBalance(tx: Db, businessId: string, kind: "amount_owed" | "business_balance") {
  const [row] = await tx
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.businessId, businessId),
        eq(ledgerAccounts.kind, kind),
        eq(ledgerAccounts.ownerId, ""),
      ),
    )
    .for("update");
  return Number(row?.balance ?? 0);
}

/**
 * Money the provider took from the business (a dispute's amount and fee): debited from the
 * business balance as far as it goes, the rest carried in `amount_owed`, never failing and never
 * taking the balance below zero. Locks `amount_owed` then the business balance (the ledger's
 * global order), so a concurrent credit that settles the debt cannot interleave.
 */
export async function postWithdrawal(
  db: Db,
  input: { businessId: string; kind: string; reference: string; amount: number },
): Promise<PostedTransaction> {
  return db.transaction(async (tx) => {
    await openAccounts(tx, input.businessId, [{ kind: "amount_owed" }]);
    await lockBalance(tx, input.businessId, "amount_owed");
    const balance = await lockBalance(tx, input.businessId, "business_balance");
    const { fromBalance, owed } = splitWithdrawal(balance, input.amount);
    return postTransaction(tx, {
      businessId: input.businessId,
      kind: input.kind,
      reference: input.reference,
      entries: [
        { account: { kind: "external" }, amount: input.amount },
        ...(fromBalance ? [{ account: { kind: "business_balance" as const }, amount: -fromBalance }] : []),
        ...(owed ? [{ account: { kind: "amount_owed" as const }, amount: -owed }] : []),
      ],
    });
  });
}

/** Cents the business owes (0 when nothing), as a positive number. */
export async function amountOwed(db: Db, businessId: string): Promise<number> {
  const [row] = await db
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.businessId, businessId), eq(ledgerAccounts.kind, "amount_owed")))
    .limit(1);
  return Math.max(0, -Number(row?.balance ?? 0));
}

/**
 * Refuses to move money out (payout allocation) while the business owes an amount: 409
 * `amount_owed`. Takes a share lock on the debt, so a withdrawal in flight is waited for.
 */
export async function refuseWhileOwed(tx: Db, businessId: string): Promise<void> {
  const [row] = await tx
    .select({ balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.businessId, businessId), eq(ledgerAccounts.kind, "amount_owed")))
    .for("share");
  const owed = -Number(row?.balance ?? 0);
  if (owed > 0)
    throw new ConflictError(
      "amount_owed",
      `The business owes ${formatMoney(owed, "USD")} after a dispute withdrawal; payouts can be allocated once incoming payments have settled it`,
    );
}
