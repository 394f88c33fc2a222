import { lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { rateLimits } from "@/db/schema";

/**
 * Deletes rate-limit counters whose window ended more than `graceMs` ago. The limiters are built
 * with `clearExpiredByTimeout: false` (every instance would run its own timer), so this scheduled
 * job is what keeps the table small. A counter without an expiry never goes; deleting an expired
 * one is safe even while a request uses its key: the next consume starts a fresh window anyway.
 */
export async function pruneRateLimits(db: Db, graceMs: number): Promise<number> {
  const deleted = await db
    .delete(rateLimits)
    .where(lt(rateLimits.expire, sql`now() - ${graceMs}::float8 * interval '1 millisecond'`))
    .returning({ key: rateLimits.key });
  return deleted.length;
}
