import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payoutUsers } from "@/db/schema";
import type { Page, Paginated } from "./payout-input";
import { payoutUserViews, type PayoutUserView } from "./payout-views";

/** A business's payout users, newest first, optionally only active or inactive ones. */
export async function listPayoutUsers(
  db: Db,
  filter: { businessId: string; status?: "active" | "inactive" },
  page: Page,
): Promise<Paginated<PayoutUserView>> {
  const rows = await db
    .select()
    .from(payoutUsers)
    .where(
      and(
        eq(payoutUsers.businessId, filter.businessId),
        filter.status ? eq(payoutUsers.status, filter.status) : undefined,
        page.starting_after ? lt(payoutUsers.id, page.starting_after) : undefined,
      ),
    )
    .orderBy(desc(payoutUsers.id))
    .limit(page.limit + 1);
  return { data: await payoutUserViews(db, rows.slice(0, page.limit)), has_more: rows.length > page.limit };
}
