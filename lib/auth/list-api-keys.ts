import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys, businesses } from "@/db/schema";
import type { ApiKeyListQuery } from "./api-key-input";
import { apiKeyStatusSql, apiKeyView, type ApiKeyView } from "./api-key-view";

/**
 * GET /api-keys: the business's keys, newest first, revoked and expired ones included (with their
 * status); `limit` per page after the `starting_after` id. Only the display prefix is shown.
 */
export async function listApiKeys(
  db: Db,
  businessId: string,
  query: ApiKeyListQuery,
): Promise<{ data: ApiKeyView[]; has_more: boolean }> {
  const rows = await db
    .select({ key: apiKeys, status: apiKeyStatusSql })
    .from(apiKeys)
    .innerJoin(businesses, eq(businesses.id, apiKeys.businessId))
    .where(
      and(
        eq(apiKeys.businessId, businessId),
        query.starting_after ? lt(apiKeys.id, query.starting_after) : undefined,
      ),
    )
    .orderBy(desc(apiKeys.id))
    .limit(query.limit + 1);
  return {
    data: rows.slice(0, query.limit).map((row) => apiKeyView(row.key, row.status)),
    has_more: rows.length > query.limit,
  };
}
