import type { SQL } from "drizzle-orm";
import { sql, type Db } from "@/db/client";
import { rawStatement } from "@/db/statement-per-db";

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
export const windowUpsert = (guard: SQL) =>
  sql`with async_commit as (select set_config('synchronous_commit', 'off', true))
      insert into rate_limits as r (key, points, expire)
      select ${sql.placeholder("key")}, 1, now() + ${sql.placeholder("windowSeconds")}::float8 * interval '1 second' from async_commit
      where ${guard}
      on conflict (key) do update set
        points = case when r.expire is null or r.expire <= now() then 1 else r.points + 1 end,
        expire = case when r.expire is null or r.expire <= now() then excluded.expire else r.expire end
      returning r.points, greatest(0, extract(epoch from r.expire - now()) * 1000)::float8 as ms_left`;

// Prepared: on PostgreSQL one round trip instead of two (an unprepared statement is described first).
const countStatement = rawStatement<{ points: number; ms_left: number }>("kassa_rate_limit_count", windowUpsert(sql`true`));
