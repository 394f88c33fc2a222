import { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "@/db/client";
import { rateLimits } from "@/db/schema";
import type { ApiCaller } from "@/lib/auth/api-keys";
import { env } from "@/lib/env";
import { RateLimitedError } from "@/lib/errors";

// Counters live in Postgres (table rate_limits), so every app instance sharing the database
// shares the limit: decision 0002.
const limiters = new WeakMap<Db, Map<string, RateLimiterDrizzle>>();

function limiterFor(db: Db, points: number, duration: number): RateLimiterDrizzle {
  let byConfig = limiters.get(db);
  if (!byConfig) limiters.set(db, (byConfig = new Map()));
  const key = `${points}/${duration}`;
  let limiter = byConfig.get(key);
  if (!limiter) {
    limiter = new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      points,
      duration,
      keyPrefix: "session",
      clearExpiredByTimeout: false,
    });
    byConfig.set(key, limiter);
  }
  return limiter;
}

/**
 * POST /session limits: per client IP (and business) for public keys, per key for secret keys.
 * Throws RateLimitedError with the seconds until the window resets.
 */
export async function limitSessionCreation(db: Db, caller: ApiCaller, clientIp: string | null): Promise<void> {
  const e = env();
  const byIp = caller.keyKind === "public";
  const points = byIp ? e.RATE_LIMIT_SESSION_PUBLIC : e.RATE_LIMIT_SESSION_SECRET;
  const key = byIp ? `ip:${caller.business.id}:${clientIp ?? "unknown"}` : `key:${caller.keyId}`;
  try {
    await limiterFor(db, points, e.RATE_LIMIT_WINDOW_SECONDS).consume(key, 1);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes)
      throw new RateLimitedError(byIp ? "ip" : "api_key", Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
    throw rejection;
  }
}
