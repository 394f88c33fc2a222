import { randomUUID } from "node:crypto";
import { and, eq, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { jobs, type Job, type JobKind } from "@/db/schema";

export type ClaimedJob = Job & { lockToken: string };

/** Which rows one claim may take: kinds (or all kinds but some), at most `limit`. */
export type ClaimLane = {
  limit: number;
  kinds?: readonly JobKind[];
  /** Every kind but these. */
  excludeKinds?: readonly JobKind[];
};

export type ClaimOptions = {
  workerId: string;
  leaseMs: number;
  /** Only this business's jobs (the sandbox clock). */
  businessId?: string;
  /** Only this job (Inngest runs one named row). */
  jobId?: string;
} & (
  | { limit: number; kinds?: readonly JobKind[] }
  /** Several lanes in one statement (the embedded worker's webhook and other slots). */
  | { lanes: readonly ClaimLane[] }
);

const kindList = (kinds: readonly JobKind[]) =>
  sql.join(
    kinds.map((k) => sql`${k}`),
    sql`, `,
  );

/**
 * Claims up to `limit` due rows (per lane): pending rows whose time has come, and running rows
 * whose lease ran out (their worker died). FOR UPDATE SKIP LOCKED lets any number of workers, in
 * any number of processes, claim at once without ever taking the same row; the fresh lock token
 * is what the claimer must show to finish the row. One statement whatever the number of lanes.
 */
export async function claimJobs(db: Db, options: ClaimOptions): Promise<ClaimedJob[]> {
  const filters: SQL[] = [];
  if (options.businessId) filters.push(sql`and business_id = ${options.businessId}`);
  // A sandbox business whose clock is being advanced: its jobs are the advance's to run, once the
  // clock has moved (lib/businesses/advance-sandbox-clock.ts). The partial index keeps this cheap.
  else filters.push(advancingElsewhere);
  if (options.jobId) filters.push(sql`and id = ${options.jobId}`);
  const lanes: readonly ClaimLane[] =
    "lanes" in options ? options.lanes : [{ limit: options.limit, kinds: options.kinds }];
  // One CTE per lane (FOR UPDATE is not allowed inside a UNION), their ids joined after.
  const selects = lanes
    .filter((lane) => lane.limit > 0)
    .map((lane, i) => {
      const laneFilters = [...filters];
      if (lane.kinds?.length) laneFilters.push(sql`and kind in (${kindList(lane.kinds)})`);
      if (lane.excludeKinds?.length) laneFilters.push(sql`and kind not in (${kindList(lane.excludeKinds)})`);
      return sql`${sql.raw(`lane${i}`)} as (select id from jobs
          where ((status = 'pending' and run_at <= now()) or (status = 'running' and locked_until < now()))
          ${sql.join(laneFilters, sql` `)}
          order by run_at
          limit ${lane.limit}
          for update skip locked)`;
    });
  if (selects.length === 0) return [];
  const token = randomUUID();
  const statement = dialect.sqlToQuery(
    sql`with ${sql.join(selects, sql`, `)}
        update jobs
        set status = 'running', locked_by = ${options.workerId}, lock_token = ${token},
            locked_until = now() + ${options.leaseMs}::float8 * interval '1 millisecond',
            attempts = jobs.attempts + 1, updated_at = now()
        from (${sql.join(
          selects.map((_, i) => sql`select id from ${sql.raw(`lane${i}`)}`),
          sql` union all `,
        )}) candidates
        where jobs.id = candidates.id
        returning jobs.*`,
  );
  // Prepared (its text is one of a few: the lanes' kinds are the same at every claim): on
  // postgres.js a statement with parameters that is not prepared costs two round trips. The rows
  // come back whole from the update, not read again.
  const result = (await db._.session
    .prepareQuery(statement, undefined, "kassa_claim_jobs", false)
    .execute()) as Record<string, unknown>[] | { rows: Record<string, unknown>[] };
  const rows = (Array.isArray(result) ? result : result.rows).map(jobFromRow);
  return rows.sort((a, b) => (a.runAt < b.runAt ? -1 : a.runAt > b.runAt ? 1 : 0)) as ClaimedJob[];
}

const advancingElsewhere = sql`and (business_id is null or business_id not in (select id from businesses
  where clock_advance_until is not null and clock_advance_until > now()))`;

const dialect = new PgDialect();
const jobColumns = Object.entries(getTableColumns(jobs));

/** A row of `returning jobs.*` as drizzle maps it (column names to keys, jsonb and timestamps decoded). */
function jobFromRow(row: Record<string, unknown>): Job {
  const job: Record<string, unknown> = {};
  for (const [key, column] of jobColumns) {
    const value = row[column.name];
    job[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return job as Job;
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
