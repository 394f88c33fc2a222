import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { idempotencyKeys } from "@/db/schema";
import { encrypt } from "@/lib/crypto";
import {
  keyInUse,
  keyWhere,
  storedAnswer,
  type IdempotencyScope,
  type StoredResponse,
} from "./run-idempotent";

export type StepsTiming = {
  /** How long a retry waits for a request with its key still running before answering 409. */
  waitMs: number;
  /** A claim this old was left by a process that died: the next request with the key takes it over. */
  staleMs: number;
};

const defaultTiming: StepsTiming = { waitMs: 30_000, staleMs: 2 * 60_000 };

type Claim = { claimedAt: string } | { replay: StoredResponse };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Claims a key for a request whose effect cannot run inside the key's transaction, or finds its
 * answer. A request with the same key still running is waited for (as runIdempotent's concurrent
 * retries wait on the key's row), then replayed; one that failed with a 5xx released the key, which
 * is claimed afresh.
 */
async function claimKey(
  db: Db,
  scope: IdempotencyScope,
  key: string,
  fingerprint: string,
  timing: StepsTiming,
): Promise<Claim> {
  const where = keyWhere(scope, key);
  const deadline = Date.now() + timing.waitMs;
  for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
    const [claimed] = await db
      .insert(idempotencyKeys)
      .values({ ...scope, key, fingerprint, statusCode: null, responseEnc: null })
      .onConflictDoNothing()
      .returning({ claimedAt: idempotencyKeys.createdAt });
    if (claimed) return claimed;
    const [row] = await db.select().from(idempotencyKeys).where(where).limit(1);
    if (!row) continue; // released between the two statements
    const stored = storedAnswer(row, fingerprint);
    if (stored) return { replay: stored };
    const [taken] = await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now()` })
      .where(
        and(
          where,
          isNull(idempotencyKeys.statusCode),
          sql`${idempotencyKeys.createdAt} < now() - ${timing.staleMs}::float8 * interval '1 millisecond'`,
        ),
      )
      .returning({ claimedAt: idempotencyKeys.createdAt });
    if (taken) return taken;
    if (Date.now() >= deadline) throw keyInUse();
    await sleep(pause);
  }
}

/**
 * Releases a claim whose request failed, so its retry runs afresh. When the database itself failed
 * (decision 0065), the release is tried again in the background for about a minute rather than
 * making the retry wait for the claim to go stale; the request's own error is what it answers.
 */
async function releaseClaim(db: Db, ours: SQL | undefined): Promise<void> {
  const release = () => db.delete(idempotencyKeys).where(ours);
  try {
    await release();
  } catch {
    void (async () => {
      for (let tries = 0; tries < 12; tries++) {
        await sleep(5_000);
        if (
          await release().then(
            () => true,
            () => false,
          )
        )
          return;
      }
    })();
  }
}

/**
 * runIdempotent for an effect that makes its own transactions and provider calls (a subscription
 * change at Stripe, a sandbox payment, a clock advance running jobs): a provider call never runs
 * while a key's row is locked, and on the embedded database nothing may wait behind an open
 * transaction. The key is claimed (committed, unanswered), the effect runs, its answer is stored.
 * A failure `toResponse` describes (a refusal) is stored like a success; any other failure releases
 * the key, so the retry runs afresh. Same key with another request: 409 `idempotency_key_reused`.
 */
export async function runIdempotentSteps(
  db: Db,
  scope: IdempotencyScope,
  key: string,
  fingerprint: string,
  effect: (db: Db) => Promise<StoredResponse>,
  toResponse: (error: unknown) => Promise<StoredResponse | null>,
  timing: StepsTiming = defaultTiming,
): Promise<StoredResponse & { replayed: boolean }> {
  const claim = await claimKey(db, scope, key, fingerprint, timing);
  if ("replay" in claim) return { ...claim.replay, replayed: true };
  // The claim's time is its token: a claim taken over by another request is no longer ours.
  const ours = and(
    keyWhere(scope, key),
    isNull(idempotencyKeys.statusCode),
    eq(idempotencyKeys.createdAt, claim.claimedAt),
  );
  let result: StoredResponse;
  try {
    result = await effect(db);
  } catch (error) {
    const described = await toResponse(error).catch(() => null);
    if (!described) {
      await releaseClaim(db, ours);
      throw error;
    }
    result = described;
  }
  await db
    .update(idempotencyKeys)
    .set({ statusCode: result.status, responseEnc: encrypt(JSON.stringify(result.body ?? null)) })
    .where(ours);
  return { ...result, replayed: false };
}
