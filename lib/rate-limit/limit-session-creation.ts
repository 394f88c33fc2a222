import type { SQL } from "drizzle-orm";
import { sql, type Db } from "@/db/client";
import { keyCheckValues, keyStillValidSql, StaleKeyError, type KeyCheck } from "@/lib/auth/api-key-cache";
import { rawStatement } from "@/db/statement-per-db";
import type { ApiCaller } from "@/lib/auth/api-keys";
import { env } from "@/lib/env";
import { RateLimitedError } from "@/lib/errors";

export type WindowCount = { count: number; msLeft: number };

/**
 * Counts one hit of `key` in its fixed window of `windowSeconds` and answers the count so far and
 * the milliseconds left in the window. One statement in its own transaction: the counter row is
 * locked only while it runs, so the hits of one key never wait on each other's work (decision
 * 0002). The window is read on the database's clock, the same for every instance.
 *
 * Its commit does not wait for the WAL flush (`synchronous_commit` off for this transaction only):
 * the row lock is released at once instead of after a disk flush, so hits of one key are not
 * held to one per fsync. A crash may forget the last fraction of a second of hits, which only
 * loosens a limit for one window; no money or session depends on the counter.
 */
// Call with the database handle, not a transaction: the setting and the row lock would last as long as it.
export async function countInWindow(db: Db, key: string, windowSeconds: number): Promise<WindowCount> {
  const [row] = await countStatement(db, { key, windowSeconds });
  if (!row) throw new Error("rate limit upsert returned nothing");
  return { count: Number(row.points), msLeft: Number(row.ms_left) };
}

/** The upsert, made only where `guard` holds (nothing is counted, and no row answered, otherwise). */
const upsert = (guard: SQL) =>
  sql`with async_commit as (select set_config('synchronous_commit', 'off', true))
      insert into rate_limits as r (key, points, expire)
      select ${sql.placeholder("key")}, 1, now() + ${sql.placeholder("windowSeconds")}::float8 * interval '1 second' from async_commit
      where ${guard}
      on conflict (key) do update set
        points = case when r.expire is null or r.expire <= now() then 1 else r.points + 1 end,
        expire = case when r.expire is null or r.expire <= now() then excluded.expire else r.expire end
      returning r.points, greatest(0, extract(epoch from r.expire - now()) * 1000)::float8 as ms_left`;

// Prepared: on PostgreSQL one round trip instead of two (an unprepared statement is described first).
const countStatement = rawStatement<{ points: number; ms_left: number }>("kassa_rate_limit_count", upsert(sql`true`));
// The same, counted only while a cached API key is still valid (decision 0081).
const checkedCountStatement = rawStatement<{ points: number; ms_left: number }>(
  "kassa_rate_limit_count_key_checked",
  upsert(keyStillValidSql),
);

/**
 * POST /session limits: per client IP (and business) for public keys, per key for secret keys.
 * Call it with the database handle, never inside a transaction (the counter would stay locked).
 * Throws RateLimitedError with the seconds until the window resets. With `keyCheck` (a cached
 * key), the hit counts only if the key is still valid, else StaleKeyError (nothing counted).
 */
export async function limitSessionCreation(
  db: Db,
  caller: ApiCaller,
  clientIp: string | null,
  keyCheck: KeyCheck | null = null,
): Promise<void> {
  const e = env();
  const byIp = caller.keyKind === "public";
  const points = byIp ? e.RATE_LIMIT_SESSION_PUBLIC : e.RATE_LIMIT_SESSION_SECRET;
  // The keys rate-limiter-flexible used ("session:" prefix), so counters carry over an upgrade.
  const key = byIp ? `session:ip:${caller.business.id}:${clientIp ?? "unknown"}` : `session:key:${caller.keyId}`;
  const windowSeconds = e.RATE_LIMIT_WINDOW_SECONDS;
  let hit: WindowCount;
  if (keyCheck) {
    const [row] = await checkedCountStatement(db, { key, windowSeconds, ...keyCheckValues(keyCheck) });
    if (!row) throw new StaleKeyError();
    hit = { count: Number(row.points), msLeft: Number(row.ms_left) };
  } else hit = await countInWindow(db, key, windowSeconds);
  const { count, msLeft } = hit;
  if (count > points) throw new RateLimitedError(byIp ? "ip" : "api_key", Math.max(1, Math.ceil(msLeft / 1000)));
}
