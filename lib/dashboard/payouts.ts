import { and, asc, desc, eq, ilike, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, payoutUsers, payoutWithdrawals } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { getBalanceSummary } from "@/lib/ledger/get-balances";
import { findPayoutUser } from "@/lib/payouts/find-payout-user";
import { listPayoutHistory } from "@/lib/payouts/list-payout-history";
import { listWithdrawals } from "@/lib/payouts/list-withdrawals";
import type { Paginated } from "@/lib/payouts/payout-input";
import {
  payoutUserViews,
  payoutUserView,
  withdrawalView,
  type PayoutHistoryEntryView,
  type PayoutUserView,
  type WithdrawalView,
} from "@/lib/payouts/payout-views";
import { containing } from "@/lib/sql-like";

export const payoutUsersPageSize = 20;
/** Pending withdrawals shown at once on the Payouts page, oldest first (the ones waiting longest). */
export const pendingWithdrawalsShown = 50;

export type PendingWithdrawal = WithdrawalView & { email: string };

export type PayoutsDashboard = {
  payoutsEnabled: boolean;
  currency: "USD";
  /** Cents: the business balance, and the payout balance allocations are paid from. */
  balance: number;
  payoutBalance: number;
  /** Cents owed after a dispute withdrawal (0: nothing); allocations are refused while anything is. */
  amountOwed: number;
  users: Paginated<PayoutUserView>;
  /** The `starting_after` of the next page of users (the last id shown), when there is one. */
  nextUsersCursor: string | null;
  pendingWithdrawals: PendingWithdrawal[];
  /** How many withdrawals are pending in all (the list shows at most `pendingWithdrawalsShown`). */
  pendingCount: number;
};

export type PayoutUsersQuery = {
  /** Part of an e-mail (any case), or a `pu_` id. */
  q?: string;
  status?: "active" | "inactive";
  /** A payout user id from the previous page. */
  after?: string;
};


/**
 * What the dashboard's Payouts page shows for one business: whether payouts are on, both
 * balances, its payout users (newest first, a page at a time, searchable by e-mail) and the
 * withdrawals waiting for the merchant (oldest first). Only this business's rows, ever.
 */
export async function getPayoutsDashboard(db: Db, businessId: string, query: PayoutUsersQuery = {}): Promise<PayoutsDashboard> {
  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId));
  if (!business) throw new NotFoundError("business_not_found", "No such business");
  const q = query.q?.trim();

  const [balances, userRows, pendingRows] = await Promise.all([
    getBalanceSummary(db, businessId),
    db
      .select()
      .from(payoutUsers)
      .where(
        and(
          eq(payoutUsers.businessId, businessId),
          q ? (q.startsWith("pu_") ? eq(payoutUsers.id, q) : ilike(payoutUsers.emailNormalized, containing(q.toLowerCase()))) : undefined,
          query.status ? eq(payoutUsers.status, query.status) : undefined,
          query.after ? lt(payoutUsers.id, query.after) : undefined,
        ),
      )
      .orderBy(desc(payoutUsers.id))
      .limit(payoutUsersPageSize + 1),
    db
      .select({ withdrawal: payoutWithdrawals, email: payoutUsers.email })
      .from(payoutWithdrawals)
      .innerJoin(payoutUsers, eq(payoutUsers.id, payoutWithdrawals.payoutUserId))
      .where(and(eq(payoutWithdrawals.businessId, businessId), eq(payoutWithdrawals.status, "pending")))
      .orderBy(asc(payoutWithdrawals.id)),
  ]);

  const users = userRows.slice(0, payoutUsersPageSize);
  const hasMore = userRows.length > payoutUsersPageSize;
  return {
    payoutsEnabled: business.payoutsEnabled,
    currency: "USD",
    balance: balances.balance,
    payoutBalance: balances.payoutBalance,
    amountOwed: balances.amountOwed,
    users: { data: await payoutUserViews(db, users), has_more: hasMore },
    nextUsersCursor: hasMore ? users.at(-1)!.id : null,
    pendingWithdrawals: pendingRows.slice(0, pendingWithdrawalsShown).map((r) => ({ ...withdrawalView(r.withdrawal), email: r.email })),
    pendingCount: pendingRows.length,
  };
}

export type PayoutUserDetail = {
  user: PayoutUserView;
  history: Paginated<PayoutHistoryEntryView>;
  withdrawals: Paginated<WithdrawalView>;
};

/**
 * One payout user of this business (by `pu_` id or e-mail; another business's user is
 * `payout_user_not_found`) with its balance, history and withdrawals, newest first, 25 of each
 * a page (`historyAfter`, `withdrawalsAfter`: the last id of the previous page).
 */
export async function getPayoutUserDetail(
  db: Db,
  businessId: string,
  ref: string,
  page: { historyAfter?: string; withdrawalsAfter?: string } = {},
): Promise<PayoutUserDetail> {
  const user = await findPayoutUser(db, businessId, ref);
  const [view, history, withdrawals] = await Promise.all([
    payoutUserView(db, user),
    listPayoutHistory(db, user.id, { limit: 25, starting_after: page.historyAfter }),
    listWithdrawals(db, { businessId, payoutUserId: user.id }, { limit: 25, starting_after: page.withdrawalsAfter }),
  ]);
  return { user: view, history, withdrawals };
}
