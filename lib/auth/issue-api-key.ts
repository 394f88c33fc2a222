import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { businesses } from "@/db/schema";
import { ConflictError, NotFoundError } from "@/lib/errors";
import type { CreateApiKeyInput } from "./api-key-input";
import { findApiKey, lockBusinessKeys } from "./api-key-rows";
import type { CreatedApiKeyView } from "./api-key-schemas";
import { createApiKey } from "./api-keys";

/** Keys that still open the API (active or in a roll's overlap), per business. */
export const maxUsableApiKeys = 20;

/**
 * 409 api_key_limit_reached when the business's (locked) keys hold `maxUsableApiKeys` usable ones
 * (active, or expiring in a roll's overlap): one more would pass the limit. `remedy` ends the message.
 */
export function refuseAtKeyLimit(keys: { status: string }[], remedy: string): void {
  const usable = keys.filter((k) => k.status === "active" || k.status === "expiring").length;
  if (usable >= maxUsableApiKeys)
    throw new ConflictError(
      "api_key_limit_reached",
      `A business may have at most ${maxUsableApiKeys} usable API keys; ${remedy}`,
    );
}

/**
 * POST /api-keys: a new key of the business, answered once in clear (`key`); only its digest is
 * stored. Refused past `maxUsableApiKeys` usable keys, so a leaked key cannot mint keys without end.
 */
export async function issueApiKey(
  db: Db,
  businessId: string,
  input: CreateApiKeyInput,
): Promise<CreatedApiKeyView> {
  return db.transaction(async (tx) => {
    const keys = await lockBusinessKeys(tx, businessId);
    refuseAtKeyLimit(keys, "revoke one first");
    const [business] = await tx
      .select({ id: businesses.id, mode: businesses.mode })
      .from(businesses)
      .where(eq(businesses.id, businessId));
    if (!business) throw new NotFoundError("business_not_found", "No such business");
    const created = await createApiKey(tx, business, input.kind, input.name);
    await recordAudit(tx, { businessId, action: "api_key.create", target: { type: "api_key", id: created.id }, changes: { kind: { from: null, to: input.kind }, name: { from: null, to: input.name ?? null } } });
    return { ...(await findApiKey(tx, businessId, created.id)), key: created.key };
  });
}
