import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { ledgerAccounts, type PayoutUser, type PayoutWithdrawal } from "@/db/schema";
import { isoMicros } from "@/lib/time";
import type { PayoutUserView, WithdrawalView } from "./payout-schemas";

// The shapes answered are the zod schemas of payout-schemas.ts (also the OpenAPI document's).
export type { PayoutHistoryEntryView, PayoutUserView, WithdrawalView } from "./payout-schemas";

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
