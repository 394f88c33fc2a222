import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs } from "@/db/schema";

/**
 * Deletes finished rows older than `olderThanMs` (7 days). Failed rows are kept for inspection;
 * the webhook log lives in webhook_events/webhook_deliveries, not here.
 */
export async function purgeFinishedJobs(db: Db, olderThanMs = 7 * 86_400_000): Promise<number> {
  const deleted = await db
    .delete(jobs)
    .where(
      and(
        eq(jobs.status, "done"),
        lt(jobs.finishedAt, sql`now() - ${olderThanMs}::float8 * interval '1 millisecond'`),
      ),
    )
    .returning({ id: jobs.id });
  return deleted.length;
}
