import type { Db } from "@/db/client";
import { keyCheckValues, keyStillValidSql, StaleKeyError, type KeyCheck } from "@/lib/auth/api-key-cache";
import { rawStatement } from "@/db/statement-per-db";
import type { ApiCaller } from "@/lib/auth/api-keys";
import { env } from "@/lib/env";
import { RateLimitedError } from "@/lib/errors";
import { countInWindow, windowUpsert, type WindowCount } from "@/lib/rate-limit/count-in-window";

// The same, counted only while a cached API key is still valid (decision 0081).
const checkedCountStatement = rawStatement<{ points: number; ms_left: number }>(
  "kassa_rate_limit_count_key_checked",
  windowUpsert(keyStillValidSql),
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
