import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { sha256Hex } from "@/lib/crypto";
import { bearerToken, findApiKeyCaller, refusalOf, type ApiCaller, type FoundApiKey } from "./api-keys";

/**
 * A cached key's claim to still be what it was when it was read: its id and the versions (xmin)
 * of its row and of its business's row. A route folds it into a statement it runs anyway
 * (`keyStillValidSql`), so the claim is checked in that statement's snapshot, on every instance,
 * without a round trip of its own (decision 0081).
 */
export type KeyCheck = { keyId: string; keyVersion: string; businessVersion: string; digest: string };

/**
 * Thrown by a route whose folded check found the cached key changed (revoked, rolled, expired, its
 * business updated) before the route changed anything: the handler forgets the key, reads it
 * afresh and runs the route again.
 */
export class StaleKeyError extends Error {
  constructor() {
    super("the cached API key changed");
  }
}

/**
 * True while the key of `keyCheck` is unchanged and still valid: neither row updated since it was
 * read (an update always gives the row a new xmin), not revoked, not past its expiry on its
 * business's clock. Its placeholders: `keyCheckValues(check)`.
 */
export const keyStillValidSql: SQL = sql`exists (
  select 1 from api_keys k join businesses b on b.id = k.business_id
  where k.id = ${sql.placeholder("checkKeyId")}
    and k.xmin::text = ${sql.placeholder("checkKeyVersion")}
    and b.xmin::text = ${sql.placeholder("checkBusinessVersion")}
    and k.revoked_at is null
    and (k.expires_at is null or k.expires_at > now() + b.clock_offset_ms::float8 * interval '1 millisecond'))`;

export function keyCheckValues(check: KeyCheck) {
  return { checkKeyId: check.keyId, checkKeyVersion: check.keyVersion, checkBusinessVersion: check.businessVersion };
}

type Entry = Omit<FoundApiKey, "digest">;
// Per database handle; only a cache: nothing is answered from it without a folded check.
const caches = new WeakMap<Db, Map<string, Entry>>();
const maxEntries = 10_000;

function cacheOf(db: Db): Map<string, Entry> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  return cache;
}

export type CachedCaller = { caller: ApiCaller; check: KeyCheck | null };

/**
 * The caller behind `Authorization: Bearer <key>`, from the cache when this instance has seen the
 * key valid before (with `check` to fold into the route's first statement), else read as
 * authenticateApiKey reads it (`check` null: already verified). A key the cache would refuse is
 * always read afresh, so every refusal costs the same digest and lookup as before.
 */
export async function authenticateCachedApiKey(
  db: Db,
  authorization: string | null,
  accept: "secret" | "secret_or_public",
): Promise<CachedCaller> {
  const token = bearerToken(authorization);
  const cache = cacheOf(db);
  const digest = sha256Hex(token);
  const hit = cache.get(digest);
  if (hit && !refusalOf(hit.caller, token, accept)) {
    const { caller, keyVersion, businessVersion } = hit;
    return { caller, check: { keyId: caller.keyId, keyVersion, businessVersion, digest } };
  }
  return { caller: await refreshApiKey(db, authorization, accept), check: null };
}

/** Reads the key afresh (dropping what the cache held for it) and caches it if valid. */
export async function refreshApiKey(
  db: Db,
  authorization: string | null,
  accept: "secret" | "secret_or_public",
): Promise<ApiCaller> {
  const cache = cacheOf(db);
  const digest = sha256Hex(bearerToken(authorization));
  cache.delete(digest);
  const found = await findApiKeyCaller(db, authorization, accept);
  if (cache.size >= maxEntries) cache.clear();
  cache.set(found.digest, { caller: found.caller, keyVersion: found.keyVersion, businessVersion: found.businessVersion });
  return found.caller;
}
