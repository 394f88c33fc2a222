import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { apiKeys, businesses } from "@/db/schema";
import { businessNowSql } from "@/lib/clock";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { findApiKey, lockBusinessKeys } from "./api-key-rows";
import type { RolledApiKeyView } from "./api-key-schemas";
import { createApiKey } from "./api-keys";
import { refuseAtKeyLimit } from "./issue-api-key";
import { refuseToChange } from "./revoke-api-key";

export type RollOptions = {
  /** Seconds the old key keeps working (0: it stops at once). */
  expiresInSeconds: number;
  /** The key that authenticates this request, if a key does (the dashboard's requests have none). */
  requestKeyId?: string;
};

/**
 * POST /api-keys/{id}/roll: a new key of the same kind and name, answered once in clear; the old
 * key keeps working until `expires_at` (now + expiresInSeconds on the business's clock), then gets
 * the uniform 401. A key can be rolled once: a rolled key is replaced already.
 */
export async function rollApiKey(
  db: Db,
  businessId: string,
  keyId: string,
  options: RollOptions,
): Promise<RolledApiKeyView> {
  return db.transaction(async (tx) => {
    const keys = await lockBusinessKeys(tx, businessId);
    const old = await findApiKey(tx, businessId, keyId);
    refuseToChange(old);
    if (old.status === "expiring")
      throw new ConflictError(
        "api_key_already_rolled",
        `This key was already rolled and stops working at ${old.expires_at}; roll its replacement, or revoke it`,
      );
    if (options.expiresInSeconds === 0 && options.requestKeyId === keyId)
      throw new ConflictError(
        "api_key_in_use",
        "This request is authenticated with the key it would end at once; roll it with expires_in_seconds above 0, or send the request with another secret key",
      );
    // With an overlap the old key stays usable beside its replacement: one more usable key, so a
    // leaked key cannot roll itself (then its replacement, …) into keys without end.
    if (options.expiresInSeconds > 0)
      refuseAtKeyLimit(keys, "roll this key with expires_in_seconds 0, or revoke a key first");
    const [business] = await tx
      .select({ id: businesses.id, mode: businesses.mode })
      .from(businesses)
      .where(eq(businesses.id, businessId));
    if (!business) throw new NotFoundError("business_not_found", "No such business");
    await tx
      .update(apiKeys)
      .set({ expiresAt: businessNowSql(businessId, options.expiresInSeconds * 1000) })
      .where(eq(apiKeys.id, keyId));
    const created = await createApiKey(tx, business, old.kind, old.name);
    await recordAudit(tx, {
      businessId,
      action: "api_key.roll",
      target: { type: "api_key", id: keyId },
      changes: {
        replaced_by: { from: null, to: created.id },
        expires_in_seconds: { from: null, to: options.expiresInSeconds },
      },
    });
    return {
      ...(await findApiKey(tx, businessId, created.id)),
      key: created.key,
      rolled_key: await findApiKey(tx, businessId, keyId),
    };
  });
}
