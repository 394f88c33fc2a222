import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys, businesses, type Business } from "@/db/schema";
import { sha256Hex } from "@/lib/crypto";
import { UnauthorizedError } from "@/lib/errors";
import { newId, randomToken } from "@/lib/ids";
import { preparedPerDb } from "@/db/prepared-per-db";

export type KeyKind = "secret" | "public";
/** `keyPrefix`: the key's display prefix (`sk_live_AbCd…`), for the audit log. */
export type ApiCaller = { business: Business; keyKind: KeyKind; keyId: string; keyPrefix?: string };

const keyPattern = /^(sk|pk)_(test|live)_[0-9A-Za-z]{32}$/;

export function keyPrefix(kind: KeyKind, mode: Business["mode"]): string {
  return `${kind === "secret" ? "sk" : "pk"}_${mode === "sandbox" ? "test" : "live"}_`;
}

/** Creates a key and returns it in clear: the only time it is ever seen. */
export async function createApiKey(
  db: Db,
  business: Pick<Business, "id" | "mode">,
  kind: KeyKind,
  name: string | null = null,
) {
  const key = keyPrefix(kind, business.mode) + randomToken(32);
  const id = newId("apiKey");
  await db.insert(apiKeys).values({
    id,
    businessId: business.id,
    kind,
    digest: sha256Hex(key),
    prefix: `${key.slice(0, 12)}…`,
    name,
  });
  return { id, key };
}

/** The key lookup as a prepared query: its SQL is built once per database handle, not per request. */
const buildKeyLookup = (db: Db) =>
  db
    .select({
      key: apiKeys,
      business: businesses,
      // The rows' versions: any update of either gives it a new xmin (decision 0081).
      keyVersion: sql<string>`${apiKeys}.xmin::text`,
      businessVersion: sql<string>`${businesses}.xmin::text`,
    })
    .from(apiKeys)
    .innerJoin(businesses, eq(businesses.id, apiKeys.businessId))
    .where(
      and(
        eq(apiKeys.digest, sql.placeholder("digest")),
        isNull(apiKeys.revokedAt),
        // A rolled key works until its expiry, read on the business's clock (a sandbox clock moves).
        or(
          isNull(apiKeys.expiresAt),
          gt(apiKeys.expiresAt, sql`now() + ${businesses.clockOffsetMs}::float8 * interval '1 millisecond'`),
        ),
      ),
    )
    .limit(1)
    .prepare("kassa_api_key_lookup");
const keyLookup = preparedPerDb(buildKeyLookup);

// A digest no key can have: malformed and missing keys still cost one digest and one lookup,
// so the answer takes the same time whatever the cause.
const impossibleDigest = sha256Hex("kassa:no-key");

/** A key found valid, with its row's and its business's versions (decision 0081). */
export type FoundApiKey = { caller: ApiCaller; digest: string; keyVersion: string; businessVersion: string };

/**
 * The caller behind `Authorization: Bearer <key>`. Every failure (missing, malformed, unknown,
 * revoked, expired, wrong kind) is the same UnauthorizedError. Reads the key's row, so a
 * revocation or an expiry holds from the next request on.
 */
export async function authenticateApiKey(
  db: Db,
  authorization: string | null,
  accept: "secret" | "secret_or_public",
): Promise<ApiCaller> {
  return (await findApiKeyCaller(db, authorization, accept)).caller;
}

/** authenticateApiKey with the rows' versions, for the key cache (lib/auth/api-key-cache.ts). */
export async function findApiKeyCaller(
  db: Db,
  authorization: string | null,
  accept: "secret" | "secret_or_public",
): Promise<FoundApiKey> {
  const token = bearerToken(authorization);
  const wellFormed = keyPattern.test(token);
  const digest = wellFormed ? sha256Hex(token) : (sha256Hex(token), impossibleDigest);
  const [row] = await keyLookup(db).execute({ digest });
  if (!row || !wellFormed) throw new UnauthorizedError("unknown key");
  const caller = { business: row.business, keyKind: row.key.kind, keyId: row.key.id, keyPrefix: row.key.prefix };
  const refusal = refusalOf(caller, token, accept);
  if (refusal) throw new UnauthorizedError(refusal);
  return { caller, digest, keyVersion: row.keyVersion, businessVersion: row.businessVersion };
}

export function bearerToken(authorization: string | null): string {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? "";
}

/** Why a found key does not open this endpoint, if it does not. */
export function refusalOf(caller: ApiCaller, token: string, accept: "secret" | "secret_or_public"): string | null {
  if (accept === "secret" && caller.keyKind !== "secret") return "public key on a secret-only endpoint";
  // The key's mode must match the business's (a live key never opens a sandbox business).
  if (!token.startsWith(keyPrefix(caller.keyKind, caller.business.mode))) return "mode mismatch";
  return null;
}
