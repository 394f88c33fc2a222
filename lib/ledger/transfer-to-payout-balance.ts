import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { InsufficientFundsError, ValidationError } from "@/lib/errors";
import { postTransaction } from "./post-transaction";

export type Balances = { balance: number; payout_balance: number };

/** Positive integer cents, or a 400 on `amount`. */
export function checkAmount(amount: unknown, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount < 1 || amount > max)
    throw ValidationError.field("amount", `amount must be an integer number of cents between 1 and ${max}`);
  return amount;
}

/**
 * Moves `amount` cents from the business balance to its payout balance (service function of the
 * CLI now, the dashboard later). InsufficientFundsError when the business balance is short.
 */
export async function transferToPayoutBalance(db: Db, businessId: string, amount: number): Promise<Balances> {
  checkAmount(amount);
  try {
    const posted = await db.transaction(async (tx) => {
      const done = await postTransaction(tx, {
        businessId,
        kind: "payout_balance_transfer",
        entries: [
          { account: { kind: "business_balance" }, amount: -amount },
          { account: { kind: "payout_balance" }, amount },
        ],
      });
      await recordAudit(tx, { businessId, action: "payout_balance.transfer", target: { type: "ledger_transaction", id: done.transactionId }, changes: { amount: { from: null, to: amount } } });
      return done;
    });
    return {
      balance: posted.balanceOf("business_balance"),
      payout_balance: posted.balanceOf("payout_balance"),
    };
  } catch (error) {
    if (error instanceof InsufficientFundsError)
      throw new InsufficientFundsError(error.accountKind, error.ownerId, "Insufficient balance");
    throw error;
  }
}
