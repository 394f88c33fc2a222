import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  ledgerAccounts,
  type PayoutEntry,
  type PayoutUser,
  type PayoutWithdrawal,
  type WithdrawalStatus,
} from "@/db/schema";
import { isoMicros } from "@/lib/time";

/** A payout user as the API shows it (to the merchant, and to the user itself). */
export type PayoutUserView = {
  id: string;
  object: "payout_user";
  email: string;
  status: PayoutUser["status"];
  /** Cents the user can withdraw now. */
  balance: number;
  /** Cents held by the user's pending withdrawals. */
  held_balance: number;
  currency: "USD";
  created_at: string;
  deactivated_at: string | null;
};

export type WithdrawalView = {
  id: string;
  object: "withdrawal";
  payout_user_id: string;
  amount: number;
  currency: "USD";
  destination: string;
  reference: string | null;
  status: WithdrawalStatus;
  status_reason: string | null;
  settlement_reference: string | null;
  resolved_by: PayoutWithdrawal["resolvedBy"];
  created_at: string;
  resolved_at: string | null;
};

export type PayoutHistoryEntryView = {
  id: string;
  object: "payout_history_entry";
  type: PayoutEntry["type"];
  /** Signed cents: the change of the available balance. */
  amount: number;
  balance_after: number;
  currency: "USD";
  withdrawal: { id: string; status: WithdrawalStatus } | null;
  created_at: string;
};

/** Views of payout users with their two ledger balances, read in one query. */
export async function payoutUserViews(db: Db, users: PayoutUser[]): Promise<PayoutUserView[]> {
  if (!users.length) return [];
  const accounts = await db
    .select({ ownerId: ledgerAccounts.ownerId, kind: ledgerAccounts.kind, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.businessId, users[0]!.businessId),
        inArray(ledgerAccounts.kind, ["payout_user", "payout_hold"]),
        inArray(
          ledgerAccounts.ownerId,
          users.map((u) => u.id),
        ),
      ),
    );
  const balance = (ownerId: string, kind: string) =>
    Number(accounts.find((a) => a.ownerId === ownerId && a.kind === kind)?.balance ?? 0);
  return users.map((user) => ({
    id: user.id,
    object: "payout_user",
    email: user.email,
    status: user.status,
    balance: balance(user.id, "payout_user"),
    held_balance: balance(user.id, "payout_hold"),
    currency: "USD",
    created_at: isoMicros(user.createdAt),
    deactivated_at: user.deactivatedAt ? isoMicros(user.deactivatedAt) : null,
  }));
}

export async function payoutUserView(db: Db, user: PayoutUser): Promise<PayoutUserView> {
  const [view] = await payoutUserViews(db, [user]);
  return view!;
}

export function withdrawalView(w: PayoutWithdrawal): WithdrawalView {
  return {
    id: w.id,
    object: "withdrawal",
    payout_user_id: w.payoutUserId,
    amount: Number(w.amount),
    currency: "USD",
    destination: w.destination,
    reference: w.reference,
    status: w.status,
    status_reason: w.statusReason,
    settlement_reference: w.settlementReference,
    resolved_by: w.resolvedBy,
    created_at: isoMicros(w.createdAt),
    resolved_at: w.resolvedAt ? isoMicros(w.resolvedAt) : null,
  };
}
