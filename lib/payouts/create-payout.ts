import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { payoutEntries, payoutUsers, type Business } from "@/db/schema";
import { decrypt, encrypt } from "@/lib/crypto";
import {
  ConflictError,
  InsufficientFundsError,
  InsufficientPayoutBalanceError,
  PayoutsDisabledError,
} from "@/lib/errors";
import { newId } from "@/lib/ids";
import { openAccounts } from "@/lib/ledger/open-accounts";
import { refuseWhileOwed } from "@/lib/ledger/amount-owed";
import { postTransaction } from "@/lib/ledger/post-transaction";
import { normalizeEmail, type CreatePayoutInput } from "./payout-input";
import { newPayoutHash, payoutHashDigest } from "./payout-hash";
import { businessNowSql } from "@/lib/clock";

export type CreatedPayout = {
  /** The payout user's hash, the same on every allocation to that user. */
  hash: string;
  payoutUserId: string;
  /** The history entry of this allocation. */
  entryId: string;
  /** The user's available balance after it. */
  balance: number;
  createdUser: boolean;
};

/**
 * POST /payout/create, in one database transaction: creates the payout user of this e-mail (any
 * case) or finds it, then one ledger transaction debits the payout balance (InsufficientPayoutBalance
 * at once when short: the debit is a conditional UPDATE, never a wait for funds) and credits the
 * user, then the history entry. Each call allocates again: idempotency is only by Idempotency-Key.
 */
export async function createPayout(
  db: Db,
  business: Pick<Business, "id" | "payoutsEnabled">,
  input: CreatePayoutInput,
): Promise<CreatedPayout> {
  if (!business.payoutsEnabled) throw new PayoutsDisabledError("payouts are disabled for this business");
  const emailNormalized = normalizeEmail(input.email);
  return db.transaction(async (tx) => {
    await refuseWhileOwed(tx, business.id);
    const fresh = newPayoutHash();
    // A concurrent creation of the same new e-mail waits here on the unique index, then finds the row.
    const [inserted] = await tx
      .insert(payoutUsers)
      .values({
        id: newId("payoutUser"),
        businessId: business.id,
        email: input.email.trim(),
        emailNormalized,
        hashDigest: payoutHashDigest(fresh),
        hashEnc: encrypt(fresh),
        hashPrefix: fresh.slice(0, 6),
        createdAt: businessNowSql(business.id),
      })
      .onConflictDoNothing({ target: [payoutUsers.businessId, payoutUsers.emailNormalized] })
      .returning();
    let user = inserted;
    let hash = fresh;
    if (user) {
      await openAccounts(tx, business.id, [
        { kind: "payout_user", ownerId: user.id },
        { kind: "payout_hold", ownerId: user.id },
      ]);
    } else {
      [user] = await tx
        .select()
        .from(payoutUsers)
        .where(and(eq(payoutUsers.businessId, business.id), eq(payoutUsers.emailNormalized, emailNormalized)))
        .limit(1);
      if (!user) throw new Error("payout user neither inserted nor found");
      if (user.status !== "active")
        throw new ConflictError(
          "payout_user_inactive",
          "This payout user is deactivated; reactivate it before allocating funds to it",
        );
      hash = decrypt(user.hashEnc);
    }

    const entryId = newId("payoutEntry");
    let balance: number;
    let transactionId: string;
    try {
      const posted = await postTransaction(tx, {
        businessId: business.id,
        kind: "payout_allocation",
        reference: entryId,
        entries: [
          { account: { kind: "payout_balance" }, amount: -input.amount },
          { account: { kind: "payout_user", ownerId: user.id }, amount: input.amount },
        ],
      });
      balance = posted.balanceOf("payout_user", user.id);
      transactionId = posted.transactionId;
    } catch (error) {
      if (error instanceof InsufficientFundsError && error.accountKind === "payout_balance")
        throw new InsufficientPayoutBalanceError("payout balance too low");
      throw error;
    }
    await tx.insert(payoutEntries).values({
      id: entryId,
      businessId: business.id,
      payoutUserId: user.id,
      type: "allocation",
      amount: input.amount,
      balanceAfter: balance,
      ledgerTransactionId: transactionId,
      createdAt: businessNowSql(business.id),
    });
    await recordAudit(tx, { businessId: business.id, action: "payout.allocate", target: { type: "payout_user", id: user.id }, changes: { email: { from: null, to: user.email }, amount: { from: null, to: input.amount }, balance: { from: balance - input.amount, to: balance } } });
    return { hash, payoutUserId: user.id, entryId, balance, createdUser: Boolean(inserted) };
  });
}
