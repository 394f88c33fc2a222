import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payoutWithdrawals, type PayoutWithdrawal, type WithdrawalStatus } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import type { Page, Paginated } from "./payout-input";
import { withdrawalView, type WithdrawalView } from "./payout-views";

/** Withdrawals of a business (or of one of its payout users), newest first, optionally by status. */
export async function listWithdrawals(
  db: Db,
  filter: { businessId: string; payoutUserId?: string; status?: WithdrawalStatus },
  page: Page,
): Promise<Paginated<WithdrawalView>> {
  const rows = await db
    .select()
    .from(payoutWithdrawals)
    .where(
      and(
        eq(payoutWithdrawals.businessId, filter.businessId),
        filter.payoutUserId ? eq(payoutWithdrawals.payoutUserId, filter.payoutUserId) : undefined,
        filter.status ? eq(payoutWithdrawals.status, filter.status) : undefined,
        page.starting_after ? lt(payoutWithdrawals.id, page.starting_after) : undefined,
      ),
    )
    .orderBy(desc(payoutWithdrawals.id))
    .limit(page.limit + 1);
  return { data: rows.slice(0, page.limit).map(withdrawalView), has_more: rows.length > page.limit };
}

/** One withdrawal of a business (of one payout user when given); 404 `withdrawal_not_found`. */
export async function getWithdrawal(
  db: Db,
  ref: { businessId: string; withdrawalId: string; payoutUserId?: string },
): Promise<PayoutWithdrawal> {
  const [row] = await db
    .select()
    .from(payoutWithdrawals)
    .where(
      and(
        eq(payoutWithdrawals.id, ref.withdrawalId),
        eq(payoutWithdrawals.businessId, ref.businessId),
        ref.payoutUserId ? eq(payoutWithdrawals.payoutUserId, ref.payoutUserId) : undefined,
      ),
    )
    .limit(1);
  if (!row) throw new NotFoundError("withdrawal_not_found", "No withdrawal with this id");
  return row;
}
