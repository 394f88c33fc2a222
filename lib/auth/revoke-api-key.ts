import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { apiKeys } from "@/db/schema";
import { businessNowSql } from "@/lib/clock";
import { ConflictError } from "@/lib/errors";
import { findApiKey, lockBusinessKeys } from "./api-key-rows";
import type { ApiKeyView } from "./api-key-view";

/** 409 for a key that already stopped working: there is nothing left to end or replace. */
export function refuseToChange(key: ApiKeyView): void {
  if (key.status === "revoked")
    throw new ConflictError("api_key_revoked", `This key was revoked at ${key.revoked_at}`);
  if (key.status === "expired")
    throw new ConflictError("api_key_expired", `This key expired at ${key.expires_at}`);
}

/**
 * POST /api-keys/{id}/revoke: the key stops working at once (uniform 401 from the next request).
 * Guard rails (decision 0017): a request cannot revoke the key it is authenticated with (send it
 * with another secret key, which proves the replacement works), and a business always keeps one
 * active secret key (roll the last one instead: the roll hands over its replacement atomically).
 */
export async function revokeApiKey(
  db: Db,
  businessId: string,
  keyId: string,
  options: { requestKeyId?: string } = {},
): Promise<ApiKeyView> {
  return db.transaction(async (tx) => {
    const keys = await lockBusinessKeys(tx, businessId);
    const key = await findApiKey(tx, businessId, keyId);
    refuseToChange(key);
    if (options.requestKeyId === keyId)
      throw new ConflictError(
        "api_key_in_use",
        "This request is authenticated with the key it would revoke; send it with another secret key, or roll this key",
      );
    const otherActiveSecret = keys.some((k) => k.id !== keyId && k.kind === "secret" && k.status === "active");
    if (key.kind === "secret" && !otherActiveSecret)
      throw new ConflictError(
        "last_active_secret_key",
        "This is the business's last active secret key; roll it (expires_in_seconds 0 ends it at once) or create another secret key first",
      );
    await tx.update(apiKeys).set({ revokedAt: businessNowSql(businessId) }).where(eq(apiKeys.id, keyId));
    await recordAudit(tx, { businessId, action: "api_key.revoke", target: { type: "api_key", id: keyId }, changes: { status: { from: key.status, to: "revoked" } } });
    return findApiKey(tx, businessId, keyId);
  });
}
