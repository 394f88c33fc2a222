import { and, asc, desc, eq, gt, inArray, lt, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { subscriptions } from "@/db/schema";
import { subscriptionView, type SubscriptionView } from "@/lib/subscriptions/subscription-view";
import type { SubscriptionFilters } from "./subscription-filters";

export type SubscriptionListPage = {
  data: SubscriptionView[];
  /** Cursors for the neighbouring pages (subscription ids), null at either end. */
  next: string | null;
  previous: string | null;
};

/**
 * The dashboard's subscriptions list: the business's subscriptions as the API shows them, newest
 * first (ids sort by creation), filtered like GET /subscriptions (status, `canceling`, customer),
 * a page at a time both ways: `after` the last row for the next page, `before` the first row for
 * the previous one.
 */
export async function listDashboardSubscriptions(
  db: Db,
  businessId: string,
  filters: SubscriptionFilters = {},
  limit = 25,
): Promise<SubscriptionListPage> {
  const size = Math.min(Math.max(Math.trunc(limit), 1), 100);
  const where: SQL[] = [eq(subscriptions.businessId, businessId)];
  if (filters.status === "canceling")
    where.push(inArray(subscriptions.status, ["active", "past_due"]), eq(subscriptions.cancelAtPeriodEnd, true));
  else if (filters.status) where.push(eq(subscriptions.status, filters.status));
  if (filters.customer !== undefined) where.push(eq(subscriptions.customer, filters.customer));
  const backwards = Boolean(filters.before);
  if (filters.after) where.push(lt(subscriptions.id, filters.after));
  if (filters.before) where.push(gt(subscriptions.id, filters.before));

  const rows = await db
    .select()
    .from(subscriptions)
    .where(and(...where))
    .orderBy(backwards ? asc(subscriptions.id) : desc(subscriptions.id))
    .limit(size + 1);
  const more = rows.length > size;
  const page = rows.slice(0, size);
  if (backwards) page.reverse();
  const data = page.map(subscriptionView);
  const first = data[0]?.id ?? null;
  const last = data.at(-1)?.id ?? null;
  return {
    data,
    next: backwards ? last : more ? last : null,
    previous: backwards ? (more ? first : null) : filters.after ? first : null,
  };
}
