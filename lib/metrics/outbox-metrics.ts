import { queryRows, sql, type Db } from "@/db/client";
import { jobKinds } from "@/db/schema";
import { metrics } from "./registry";

/**
 * Sets the outbox gauges from the jobs table (one grouped query, at scrape time): how many rows of
 * each kind wait or run, and how late the oldest due one is. Every kind is set, 0 when it has none,
 * so an alert sees the queue drain. Shared by every instance on the database: any one's scrape tells.
 */
export async function refreshOutboxGauges(db: Db): Promise<void> {
  const rows = await queryRows<{
    kind: string;
    status: string;
    n: number | string;
    oldest: number | string | null;
  }>(
    db,
    sql`select kind, status, count(*) as n,
          extract(epoch from now() - min(run_at) filter (where status = 'pending' and run_at <= now())) as oldest
        from jobs where status in ('pending', 'running') group by kind, status`,
  );
  const m = metrics();
  m.outboxJobs.reset();
  m.outboxOldestDueAge.reset();
  for (const kind of jobKinds) {
    m.outboxJobs.set({ kind, status: "pending" }, 0);
    m.outboxJobs.set({ kind, status: "running" }, 0);
    m.outboxOldestDueAge.set({ kind }, 0);
  }
  for (const row of rows) {
    m.outboxJobs.set({ kind: row.kind, status: row.status }, Number(row.n));
    if (row.oldest !== null) m.outboxOldestDueAge.set({ kind: row.kind }, Math.max(0, Number(row.oldest)));
  }
}
