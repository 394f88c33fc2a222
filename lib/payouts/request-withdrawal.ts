import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  payoutEntries,
  payoutUsers,
  payoutWithdrawals,
  type PayoutUser,
  type PayoutWithdrawal,
} from "@/db/schema";
import { BadRequestError, InsufficientFundsError, UnauthorizedError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { postTransaction } from "@/lib/ledger/post-transaction";
import type { WithdrawalInput } from "./payout-input";
import { businessNowSql } from "@/lib/clock";

/**
 * A payout user asks to be paid: one ledger transaction moves the amount from its available
 * balance to its hold, so it can never withdraw more than it has, however many requests run at
 * once (the debit is a conditional UPDATE on its account row). The merchant or support then
 * completes or rejects it; the user may cancel it while pending.
 */
export async function requestWithdrawal(
  db: Db,
  user: Pick<PayoutUser, "id">,
  input: WithdrawalInput,
): Promise<PayoutWithdrawal> {
  return db.transaction(async (tx) => {
    // Read the user again under a share lock: a deactivation cannot slip in before commit.
    const [current] = await tx.select().from(payoutUsers).where(eq(payoutUsers.id, user.id)).for("share");
    if (!current || current.status !== "active") throw new UnauthorizedError("payout user inactive");

    const withdrawalId = newId("withdrawal");
    let posted;
    try {
      posted = await postTransaction(tx, {
        businessId: current.businessId,
        kind: "payout_withdrawal_hold",
        reference: withdrawalId,
        entries: [
          { account: { kind: "payout_user", ownerId: current.id }, amount: -input.amount },
          { account: { kind: "payout_hold", ownerId: current.id }, amount: input.amount },
        ],
      });
    } catch (error) {
      if (error instanceof InsufficientFundsError)
        throw new BadRequestError("insufficient_balance", "The amount exceeds the available balance");
      throw error;
    }
    const [withdrawal] = await tx
      .insert(payoutWithdrawals)
      .values({
        id: withdrawalId,
        businessId: current.businessId,
        payoutUserId: current.id,
        amount: input.amount,
        destination: input.destination,
        reference: input.reference ?? null,
        holdTransactionId: posted.transactionId,
        createdAt: businessNowSql(current.businessId),
      })
      .returning();
    await tx.insert(payoutEntries).values({
      id: newId("payoutEntry"),
      businessId: current.businessId,
      payoutUserId: current.id,
      type: "withdrawal",
      amount: -input.amount,
      balanceAfter: posted.balanceOf("payout_user", current.id),
      withdrawalId,
      ledgerTransactionId: posted.transactionId,
      createdAt: businessNowSql(current.businessId),
    });
    return withdrawal!;
  });
}
