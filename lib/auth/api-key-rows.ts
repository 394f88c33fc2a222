import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys, businesses } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { apiKeyStatusSql, apiKeyView, type ApiKeyView } from "./api-key-view";

/**
 * Serializes key changes per business: locks the business row (FOR NO KEY UPDATE, which key
 * inserts' foreign-key checks do not wait on), then answers its unrevoked keys with their status,
 * read after the lock. Two concurrent revokes can never both pass the "last active secret key"
 * check, nor concurrent creations the key limit (locking the key rows alone would miss keys
 * inserted meanwhile). No such business: an empty list.
 */
export async function lockBusinessKeys(tx: Db, businessId: string) {
  await tx.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, businessId)).for("no key update");
  return tx
    .select({ id: apiKeys.id, kind: apiKeys.kind, status: apiKeyStatusSql })
    .from(apiKeys)
    .innerJoin(businesses, eq(businesses.id, apiKeys.businessId))
    .where(and(eq(apiKeys.businessId, businessId), isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.id));
}

/** One key of the business with its status; another business's key is not found, like an unknown id. */
export async function findApiKey(db: Db, businessId: string, keyId: string): Promise<ApiKeyView> {
  // Anything that cannot be a key id (NUL, 10 kB…) is simply not found, without a query.
  if (!/^key_[0-9A-Za-z]{1,64}$/.test(keyId)) throw new NotFoundError("api_key_not_found", "No API key with this id");
  const [row] = await db
    .select({ key: apiKeys, status: apiKeyStatusSql })
    .from(apiKeys)
    .innerJoin(businesses, eq(businesses.id, apiKeys.businessId))
    .where(and(eq(apiKeys.businessId, businessId), eq(apiKeys.id, keyId)))
    .limit(1);
  if (!row) throw new NotFoundError("api_key_not_found", "No API key with this id");
  return apiKeyView(row.key, row.status);
}
