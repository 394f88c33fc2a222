import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { queryRows, type Db } from "@/db/client";
import { jobs, type Job, type JobKind } from "@/db/schema";

export type ClaimedJob = Job & { lockToken: string };

export type ClaimOptions = {
  workerId: string;
  limit: number;
  leaseMs: number;
  /** Only this business's jobs (the sandbox clock). */
  businessId?: string;
  /** Only this job (Inngest runs one named row). */
  jobId?: string;
  kinds?: readonly JobKind[];
};

/**
 * Claims up to `limit` due rows: pending rows whose time has come, and running rows whose lease
 * ran out (their worker died). FOR UPDATE SKIP LOCKED lets any number of workers, in any number
 * of processes, claim at once without ever taking the same row; the fresh lock token is what
 * the claimer must show to finish the row.
 */
export async function claimJobs(db: Db, options: ClaimOptions): Promise<ClaimedJob[]> {
  const filters: SQL[] = [];
  if (options.businessId) filters.push(sql`and business_id = ${options.businessId}`);
  if (options.jobId) filters.push(sql`and id = ${options.jobId}`);
  if (options.kinds?.length)
    filters.push(
      sql`and kind in (${sql.join(
        options.kinds.map((k) => sql`${k}`),
        sql`, `,
      )})`,
    );
  const token = randomUUID();
  const claimed = await queryRows<{ id: string }>(
    db,
    sql`with candidates as (
          select id from jobs
          where ((status = 'pending' and run_at <= now()) or (status = 'running' and locked_until < now()))
          ${sql.join(filters, sql` `)}
          order by run_at
          limit ${options.limit}
          for update skip locked
        )
        update jobs
        set status = 'running', locked_by = ${options.workerId}, lock_token = ${token},
            locked_until = now() + ${options.leaseMs}::float8 * interval '1 millisecond',
            attempts = jobs.attempts + 1, updated_at = now()
        from candidates
        where jobs.id = candidates.id
        returning jobs.id`,
  );
  if (claimed.length === 0) return [];
  const rows = await db
    .select()
    .from(jobs)
    .where(
      and(
        inArray(
          jobs.id,
          claimed.map((c) => c.id),
        ),
        eq(jobs.lockToken, token),
      ),
    )
    .orderBy(jobs.runAt);
  return rows as ClaimedJob[];
}

/** Keeps the leases of rows still being worked on. */
export async function extendLeases(db: Db, held: Pick<ClaimedJob, "id" | "lockToken">[], leaseMs: number) {
  if (held.length === 0) return;
  await db
    .update(jobs)
    .set({ lockedUntil: sql`now() + ${leaseMs}::float8 * interval '1 millisecond'` })
    .where(
      and(
        eq(jobs.status, "running"),
        inArray(
          jobs.id,
          held.map((j) => j.id),
        ),
        inArray(jobs.lockToken, [...new Set(held.map((j) => j.lockToken))]),
      ),
    );
}

/** Gives rows back unfinished (a worker stopping): due again at once for any worker. */
export async function releaseJobs(db: Db, held: Pick<ClaimedJob, "id" | "lockToken">[]) {
  for (const job of held)
    await db
      .update(jobs)
      .set({
        status: "pending",
        runAt: sql`now()`,
        lockedBy: null,
        lockToken: null,
        lockedUntil: null,
        updatedAt: sql`now()`,
      })
      .where(and(eq(jobs.id, job.id), eq(jobs.lockToken, job.lockToken), eq(jobs.status, "running")));
}
