import { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "@/db/client";
import { rateLimits } from "@/db/schema";
import { env } from "@/lib/env";
import { LoginRateLimitedError } from "./errors";

// Same store as the API's limits (table rate_limits, shared by every instance: decision 0002).
const limiters = new WeakMap<Db, Map<string, RateLimiterDrizzle>>();

function limiterFor(db: Db, kind: "email" | "ip", points: number, duration: number): RateLimiterDrizzle {
  let byConfig = limiters.get(db);
  if (!byConfig) limiters.set(db, (byConfig = new Map()));
  const key = `${kind}/${points}/${duration}`;
  let limiter = byConfig.get(key);
  if (!limiter) {
    limiter = new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      points,
      duration,
      keyPrefix: `login-${kind}`,
      clearExpiredByTimeout: false,
    });
    byConfig.set(key, limiter);
  }
  return limiter;
}

function limitersOf(db: Db) {
  const e = env();
  return {
    email: limiterFor(db, "email", e.RATE_LIMIT_LOGIN_EMAIL, e.RATE_LIMIT_LOGIN_WINDOW_SECONDS),
    ip: limiterFor(db, "ip", e.RATE_LIMIT_LOGIN_IP, e.RATE_LIMIT_LOGIN_WINDOW_SECONDS),
  };
}

export type LoginAttempt = { email: string; ip: string | null };

/**
 * Counts one attempt against the e-mail and the client IP before the password is checked, and
 * throws LoginRateLimitedError once either is spent; `forgiveLoginAttempt` gives the point back
 * after a success, so only failures add up. Counting first keeps parallel guesses inside the limit.
 */
export async function countLoginAttempt(db: Db, attempt: LoginAttempt): Promise<void> {
  const { email, ip } = limitersOf(db);
  for (const [kind, limiter, key] of [
    ["email", email, attempt.email],
    ["ip", ip, attempt.ip ?? "unknown"],
  ] as const) {
    try {
      await limiter.consume(key, 1);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes)
        throw new LoginRateLimitedError(kind, Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
      throw rejection;
    }
  }
}

export async function forgiveLoginAttempt(db: Db, attempt: LoginAttempt): Promise<void> {
  const { email, ip } = limitersOf(db);
  await email.reward(attempt.email, 1);
  await ip.reward(attempt.ip ?? "unknown", 1);
}
