import { and, eq, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { idempotencyKeys, type IdempotencyKey } from "@/db/schema";
import { decrypt, encrypt, sha256Hex } from "@/lib/crypto";
import { BadRequestError, ConflictError } from "@/lib/errors";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { canonicalJson } from "./canonical-json";

/** What a request answered: replayed as is for a retry with the same key. */
export type StoredResponse = { status: number; body: unknown };

/** Keys are scoped to a business and to who sent them (`api`, or a payout user id). */
export type IdempotencyScope = { businessId: string; principal: string };

export const idempotencyKeyHeader = "idempotency-key";
export const maxKeyLength = 255;

/** The request's Idempotency-Key: null when absent; 400 when present but unusable. */
export function readIdempotencyKey(request: Request): string | null {
  const value = request.headers.get(idempotencyKeyHeader);
  if (value === null) return null;
  if (value.length === 0 || value.length > maxKeyLength || !/^[\x21-\x7e]+$/.test(value))
    throw new BadRequestError(
      "invalid_idempotency_key",
      `Idempotency-Key must be 1 to ${maxKeyLength} visible ASCII characters`,
    );
  return value;
}

/** Method, path and body (key order ignored): "the same request" for a key. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return sha256Hex(`${method.toUpperCase()} ${path}\n${canonicalJson(body ?? null)}`);
}

/** The row of one key. */
export const keyWhere = (scope: IdempotencyScope, key: string) =>
  and(
    eq(idempotencyKeys.businessId, scope.businessId),
    eq(idempotencyKeys.principal, scope.principal),
    eq(idempotencyKeys.key, key),
  );

export const keyReused = () =>
  new ConflictError(
    "idempotency_key_reused",
    "This Idempotency-Key was already used with a different request; use a new key for a new request",
  );

export const keyInUse = () =>
  new ConflictError(
    "idempotency_key_in_use",
    "A request with this Idempotency-Key is still being processed; retry it in a moment",
  );

/** A key row's answer for a request with this fingerprint: 409 for another request, null while unanswered. */
export function storedAnswer(row: IdempotencyKey, fingerprint: string): StoredResponse | null {
  if (row.fingerprint !== fingerprint) throw keyReused();
  if (row.statusCode === null || row.responseEnc === null) return null;
  return { status: row.statusCode, body: JSON.parse(decrypt(row.responseEnc)) as unknown };
}

/**
 * Runs `effect` at most once per key. Without a key it simply runs. With one, the key row is
 * inserted in the same database transaction as the effect: a concurrent request with the same key
 * waits on that row's unique index until the first commits, then reads its response (or, if the
 * first rolled back, claims the key itself). So N identical concurrent requests move money once
 * and all get the first response.
 *
 * The effect runs in a savepoint. A failure `toResponse` can describe (a domain error: 4xx) rolls
 * the effect back and is stored as the answer, like a success; any other failure rolls everything
 * back, key included, so a 500 moves nothing and the retry runs afresh.
 * Same key with another request (method, path or body): 409 `idempotency_key_reused`.
 */
export async function runIdempotent(
  db: Db,
  scope: IdempotencyScope,
  key: string | null,
  fingerprint: string,
  effect: (tx: Db) => Promise<StoredResponse>,
  toResponse: (error: unknown) => Promise<StoredResponse | null>,
): Promise<StoredResponse & { replayed: boolean }> {
  if (key === null) return { ...(await effect(db)), replayed: false };
  const where = keyWhere(scope, key);
  return transactionWithJobs(db, async (tx) => {
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({ ...scope, key, fingerprint, statusCode: null, responseEnc: null })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (!claimed.length) {
      const [first] = await tx.select().from(idempotencyKeys).where(where).limit(1);
      // Only a step-by-step request (runIdempotentSteps) commits a row unanswered, or deletes
      // one (its claim released just now).
      const stored = first ? storedAnswer(first, fingerprint) : null;
      if (!stored) throw keyInUse();
      return { ...stored, replayed: true };
    }
    let result: StoredResponse;
    try {
      result = await tx.transaction((inner) => effect(inner));
    } catch (error) {
      const described = await toResponse(error);
      if (!described) throw error;
      result = described;
    }
    await tx
      .update(idempotencyKeys)
      .set({ statusCode: result.status, responseEnc: encrypt(JSON.stringify(result.body ?? null)) })
      .where(where);
    return { ...result, replayed: false };
  });
}

/**
 * Replaces a key's stored answer with the one finally sent, for an effect that completes after the
 * key's transaction (a forced redirect's provider start): later replays then match it. A retry
 * arriving while that step still runs replays the answer stored at commit.
 */
export async function completeIdempotentResponse(
  db: Db,
  scope: IdempotencyScope,
  key: string,
  response: StoredResponse,
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ statusCode: response.status, responseEnc: encrypt(JSON.stringify(response.body ?? null)) })
    .where(keyWhere(scope, key));
}

/** Forgets keys older than `before` (replays are promised for 24 hours); returns how many. */
export async function pruneIdempotencyKeys(db: Db, before: Date): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, before.toISOString()))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}
