import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@/db/client";
import type { JobKind } from "@/db/schema";

/** Announce a due row again when its last announcement is older than this. */
export const redispatchAfterMs = 5 * 60_000;

/**
 * Due rows (pending and due, or running with a lapsed lease) not announced to Inngest in the last
 * five minutes; marks them announced now. `window` distinguishes this announcement from earlier
 * ones in the event id, so Inngest's de-duplication does not swallow it.
 */
export async function claimUndispatchedDueJobs(db: Db, limit = 500) {
  const rows = await queryRows<{
    id: string;
    kind: JobKind;
    business_id: string | null;
    dispatched_at: string;
  }>(
    db,
    sql`with due as (
          select id from jobs
          where ((status = 'pending' and run_at <= now()) or (status = 'running' and locked_until < now()))
            and (dispatched_at is null or dispatched_at < now() - ${redispatchAfterMs}::float8 * interval '1 millisecond')
          order by run_at
          limit ${limit}
          for update skip locked
        )
        update jobs set dispatched_at = now()
        from due where jobs.id = due.id
        returning jobs.id, jobs.kind, jobs.business_id, (extract(epoch from now()) * 1000)::bigint::text as dispatched_at`,
  );
  return rows.map((r) => ({ id: r.id, kind: r.kind, businessId: r.business_id, window: r.dispatched_at }));
}
