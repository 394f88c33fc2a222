import { and, asc, eq, gt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys, webhookEvents } from "@/db/schema";

/**
 * The `starting_after` of the page before the one that starts at `firstId`, for the lists that
 * run newest first by id and only page forwards (GET /api-keys, GET /webhooks/events): the
 * previous page holds the `limit` ids just newer than `firstId`, so it starts after the id newer
 * than all of those. `""` for the first page; null when there is no previous page.
 */
export async function previousCursor(db: Db, list: "api_keys" | "webhook_events", businessId: string, firstId: string | null, limit: number): Promise<string | null> {
  if (!firstId) return null;
  const table = list === "api_keys" ? apiKeys : webhookEvents;
  const newer = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.businessId, businessId), gt(table.id, firstId)))
    .orderBy(asc(table.id))
    .limit(limit + 1);
  if (newer.length === 0) return null;
  return newer.length <= limit ? "" : newer[limit]!.id;
}
