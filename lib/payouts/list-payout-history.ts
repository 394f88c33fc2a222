import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payoutEntries, payoutWithdrawals } from "@/db/schema";
import { isoMicros } from "@/lib/time";
import type { Page, Paginated } from "./payout-input";
import type { PayoutHistoryEntryView } from "./payout-views";

/**
 * A payout user's history, newest first: allocations (+), withdrawal requests (-) and funds
 * returned by rejected or canceled withdrawals (+), each with the balance right after it.
 */
export async function listPayoutHistory(
  db: Db,
  payoutUserId: string,
  page: Page,
): Promise<Paginated<PayoutHistoryEntryView>> {
  const rows = await db
    .select({ entry: payoutEntries, withdrawalStatus: payoutWithdrawals.status })
    .from(payoutEntries)
    .leftJoin(payoutWithdrawals, eq(payoutWithdrawals.id, payoutEntries.withdrawalId))
    .where(
      and(
        eq(payoutEntries.payoutUserId, payoutUserId),
        page.starting_after ? lt(payoutEntries.id, page.starting_after) : undefined,
      ),
    )
    .orderBy(desc(payoutEntries.id))
    .limit(page.limit + 1);
  return {
    data: rows.slice(0, page.limit).map(({ entry, withdrawalStatus }) => ({
      id: entry.id,
      object: "payout_history_entry",
      type: entry.type,
      amount: Number(entry.amount),
      balance_after: Number(entry.balanceAfter),
      currency: "USD",
      withdrawal:
        entry.withdrawalId && withdrawalStatus ? { id: entry.withdrawalId, status: withdrawalStatus } : null,
      created_at: isoMicros(entry.createdAt),
    })),
    has_more: rows.length > page.limit,
  };
}
