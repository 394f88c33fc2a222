import { and, asc, eq, gt, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { disputes } from "@/db/schema";
import { parseOrThrow } from "@/lib/http/validation";
import { type DisputeList, type DisputeListQuery, disputeListQuerySchema } from "./dispute-schemas";
import { disputeView } from "./dispute-view";

/** The query string of GET /disputes, validated (400 field map naming the parameter). */
export function parseDisputeListQuery(params: URLSearchParams): DisputeListQuery {
  const raw: Record<string, string> = {};
  for (const key of ["session_id", "status", "limit", "starting_after"]) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  return parseOrThrow(disputeListQuerySchema, raw);
}

/** GET /disputes: the business's disputes, oldest first (ids sort by creation), cursor paging as GET /subscriptions. */
export async function listDisputes(
  db: Db,
  businessId: string,
  query: DisputeListQuery,
): Promise<DisputeList> {
  const limit = query.limit ?? 10;
  const where: SQL[] = [eq(disputes.businessId, businessId)];
  if (query.session_id) where.push(eq(disputes.sessionId, query.session_id));
  if (query.status) where.push(eq(disputes.status, query.status));
  if (query.starting_after) where.push(gt(disputes.id, query.starting_after));
  const rows = await db
    .select()
    .from(disputes)
    .where(and(...where))
    .orderBy(asc(disputes.id))
    .limit(limit + 1);
  return { data: rows.slice(0, limit).map(disputeView), has_more: rows.length > limit };
}
