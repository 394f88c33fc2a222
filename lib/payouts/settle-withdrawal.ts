import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { payoutEntries, payoutWithdrawals, type PayoutWithdrawal, type WithdrawalActor } from "@/db/schema";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { postTransaction } from "@/lib/ledger/post-transaction";
import { businessNowSql } from "@/lib/clock";

export type WithdrawalOutcome = "completed" | "rejected" | "canceled";

/** Which withdrawal: of a business, and of one payout user when the user itself asks. */
export type WithdrawalRef = { businessId: string; withdrawalId: string; payoutUserId?: string };

/**
 * Settles a pending withdrawal, in one database transaction with the row locked first:
 * `completed` pays the held funds out to the outside world; `rejected` and `canceled` return them
 * to the user's available balance (with a history entry). Settling again to the same outcome
 * answers the withdrawal unchanged; to another outcome, 409 `withdrawal_not_pending`.
 */
export async function settleWithdrawal(
  db: Db,
  ref: WithdrawalRef,
  outcome: WithdrawalOutcome,
  actor: WithdrawalActor,
  details: { reason?: string | null; settlementReference?: string | null } = {},
): Promise<PayoutWithdrawal> {
  return db.transaction(async (tx) => {
    const [withdrawal] = await tx
      .select()
      .from(payoutWithdrawals)
      .where(
        and(
          eq(payoutWithdrawals.id, ref.withdrawalId),
          eq(payoutWithdrawals.businessId, ref.businessId),
          ref.payoutUserId ? eq(payoutWithdrawals.payoutUserId, ref.payoutUserId) : undefined,
        ),
      )
      .for("update");
    if (!withdrawal) throw new NotFoundError("withdrawal_not_found", "No withdrawal with this id");
    if (withdrawal.status === outcome) return withdrawal;
    if (withdrawal.status !== "pending")
      throw new ConflictError("withdrawal_not_pending", `This withdrawal is already ${withdrawal.status}`);

    const amount = Number(withdrawal.amount);
    const owner = withdrawal.payoutUserId;
    const posted = await postTransaction(tx, {
      businessId: withdrawal.businessId,
      kind: outcome === "completed" ? "payout_withdrawal_complete" : "payout_withdrawal_return",
      reference: withdrawal.id,
      entries: [
        { account: { kind: "payout_hold", ownerId: owner }, amount: -amount },
        outcome === "completed"
          ? { account: { kind: "external" }, amount }
          : { account: { kind: "payout_user", ownerId: owner }, amount },
      ],
    });
    if (outcome !== "completed")
      await tx.insert(payoutEntries).values({
        id: newId("payoutEntry"),
        businessId: withdrawal.businessId,
        payoutUserId: owner,
        type: "withdrawal_returned",
        amount,
        balanceAfter: posted.balanceOf("payout_user", owner),
        withdrawalId: withdrawal.id,
        ledgerTransactionId: posted.transactionId,
        createdAt: businessNowSql(withdrawal.businessId),
      });
    const [settled] = await tx
      .update(payoutWithdrawals)
      .set({
        status: outcome,
        statusReason: outcome === "completed" ? null : (details.reason ?? null),
        settlementReference: outcome === "completed" ? (details.settlementReference ?? null) : null,
        resolvedBy: actor,
        resolvedAt: businessNowSql(withdrawal.businessId),
        settleTransactionId: posted.transactionId,
      })
      .where(and(eq(payoutWithdrawals.id, withdrawal.id), eq(payoutWithdrawals.status, "pending")))
      .returning();
    if (!settled) throw new Error("withdrawal changed while locked");
    if (outcome !== "canceled")
      await recordAudit(tx, { businessId: ref.businessId, action: outcome === "completed" ? "payout_withdrawal.complete" : "payout_withdrawal.reject", target: { type: "payout_withdrawal", id: withdrawal.id }, changes: { status: { from: "pending", to: outcome }, amount: { from: null, to: amount } } });
    return settled;
  });
}

/** The merchant (or support) has paid the withdrawal out. */
export const completeWithdrawal = (
  db: Db,
  ref: WithdrawalRef,
  details: { settlementReference?: string | null } = {},
  actor: WithdrawalActor = "merchant",
) => settleWithdrawal(db, ref, "completed", actor, details);

/** The merchant (or support) refuses it; the funds go back to the user's balance. */
export const rejectWithdrawal = (
  db: Db,
  ref: WithdrawalRef,
  details: { reason?: string | null } = {},
  actor: WithdrawalActor = "merchant",
) => settleWithdrawal(db, ref, "rejected", actor, details);

/** The payout user withdraws its own pending request; the funds go back to its balance. */
export const cancelWithdrawal = (
  db: Db,
  ref: WithdrawalRef & { payoutUserId: string },
  details: { reason?: string | null } = {},
) => settleWithdrawal(db, ref, "canceled", "payout_user", details);
