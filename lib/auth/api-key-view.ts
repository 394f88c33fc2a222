import { sql } from "drizzle-orm";
import { apiKeys, businesses, type ApiKey } from "@/db/schema";
import { isoMicros } from "@/lib/time";
import type { apiKeyStatuses, ApiKeyView } from "./api-key-schemas";

export type ApiKeyStatus = (typeof apiKeyStatuses)[number];

/**
 * A key's status on its business's clock, as SQL (the same clock authenticateApiKey reads):
 * revoked wins; then expired once `expires_at` has passed; expiring while a rolled key's overlap
 * runs; otherwise active. Needs `businesses` joined on the key's business.
 */
export const apiKeyStatusSql = sql<ApiKeyStatus>`case
  when ${apiKeys.revokedAt} is not null then 'revoked'
  when ${apiKeys.expiresAt} is null then 'active'
  when ${apiKeys.expiresAt} <= now() + ${businesses.clockOffsetMs}::float8 * interval '1 millisecond' then 'expired'
  else 'expiring' end`;

/** What the API shows of a key: never the key or its digest, only the display prefix (api-key-schemas.ts). */
export type { ApiKeyView } from "./api-key-schemas";

export function apiKeyView(key: ApiKey, status: ApiKeyStatus): ApiKeyView {
  return {
    id: key.id,
    object: "api_key",
    kind: key.kind,
    name: key.name,
    prefix: key.prefix,
    status,
    created_at: isoMicros(key.createdAt),
    expires_at: key.expiresAt === null ? null : isoMicros(key.expiresAt),
    revoked_at: key.revokedAt === null ? null : isoMicros(key.revokedAt),
  };
}
