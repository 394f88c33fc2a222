import { and, asc, desc, eq, gt, inArray, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { subscriptions } from "@/db/schema";
import { isSafeText, listLimitParam, parseOrThrow, safeText } from "@/lib/http/validation";
import type { SubscriptionList } from "./subscription-schema";
import { subscriptionView, type SubscriptionView } from "./subscription-view";

export const listQuerySchema = z.object({
  status: z
    .enum(["active", "past_due", "canceled", "canceling"], {
      error: "status must be one of active, past_due, canceled, canceling",
    })
    .optional(),
  customer: z
    .string()
    .refine(isSafeText, safeText)
    .max(255, { error: "customer must be at most 255 characters" })
    .optional(),
  limit: listLimitParam().optional(),
  starting_after: z
    .string()
    .regex(/^psub_[0-9A-Za-z]{1,64}$/, { error: "starting_after must be a subscription id" })
    .optional(),
});

export type ListQuery = z.infer<typeof listQuerySchema>;

/** The query string of GET /subscriptions, validated (400 field map naming the parameter). */
export function parseListQuery(params: URLSearchParams): ListQuery {
  const raw: Record<string, string> = {};
  for (const key of ["status", "customer", "limit", "starting_after"]) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  return parseOrThrow(listQuerySchema, raw);
}

/** The filters both lists share (the API's query and the dashboard's). */
type SubscriptionFilter = { status?: ListQuery["status"]; customer?: string };

function filterConditions(businessId: string, filter: SubscriptionFilter): SQL[] {
  const where: SQL[] = [eq(subscriptions.businessId, businessId)];
  if (filter.status === "canceling")
    where.push(
      inArray(subscriptions.status, ["active", "past_due"]),
      eq(subscriptions.cancelAtPeriodEnd, true),
    );
  else if (filter.status) where.push(eq(subscriptions.status, filter.status));
  if (filter.customer !== undefined) where.push(eq(subscriptions.customer, filter.customer));
  return where;
}

/**
 * GET /subscriptions: the business's subscriptions, oldest first (ids sort by creation), `limit`
 * per page after the `starting_after` id. `canceling`: active or past due with a cancellation
 * scheduled.
 */
export async function listSubscriptions(
  db: Db,
  businessId: string,
  query: ListQuery,
): Promise<SubscriptionList> {
  const limit = query.limit ?? 10;
  const where = filterConditions(businessId, query);
  if (query.starting_after) where.push(gt(subscriptions.id, query.starting_after));
  const rows = await db
    .select()
    .from(subscriptions)
    .where(and(...where))
    .orderBy(asc(subscriptions.id))
    .limit(limit + 1);
  return { data: rows.slice(0, limit).map(subscriptionView), has_more: rows.length > limit };
}

/** A page of the dashboard's list, with cursors for the neighbouring pages (null at either end). */
export type SubscriptionPage = { data: SubscriptionView[]; next: string | null; previous: string | null };

/**
 * The same list newest first, a page at a time both ways (the dashboard's): `after` the last row
 * for the next page, `before` the first row for the previous one; the same filters as the API.
 */
export async function listSubscriptionsNewestFirst(
  db: Db,
  businessId: string,
  filter: SubscriptionFilter & { after?: string; before?: string } = {},
  limit = 25,
): Promise<SubscriptionPage> {
  const size = Math.min(Math.max(Math.trunc(limit), 1), 100);
  const where = filterConditions(businessId, filter);
  const backwards = Boolean(filter.before);
  if (filter.after) where.push(lt(subscriptions.id, filter.after));
  if (filter.before) where.push(gt(subscriptions.id, filter.before));
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
    previous: backwards ? (more ? first : null) : filter.after ? first : null,
  };
}
