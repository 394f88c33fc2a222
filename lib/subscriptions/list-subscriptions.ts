import { and, asc, eq, gt, inArray, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { subscriptions } from "@/db/schema";
import { isSafeText, listLimitParam, parseOrThrow, safeText } from "@/lib/http/validation";
import type { SubscriptionList } from "./subscription-schema";
import { subscriptionView } from "./subscription-view";

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
  const where: SQL[] = [eq(subscriptions.businessId, businessId)];
  if (query.status === "canceling")
    where.push(
      inArray(subscriptions.status, ["active", "past_due"]),
      eq(subscriptions.cancelAtPeriodEnd, true),
    );
  else if (query.status) where.push(eq(subscriptions.status, query.status));
  if (query.customer !== undefined) where.push(eq(subscriptions.customer, query.customer));
  if (query.starting_after) where.push(gt(subscriptions.id, query.starting_after));
  const rows = await db
    .select()
    .from(subscriptions)
    .where(and(...where))
    .orderBy(asc(subscriptions.id))
    .limit(limit + 1);
  return { data: rows.slice(0, limit).map(subscriptionView), has_more: rows.length > limit };
}
