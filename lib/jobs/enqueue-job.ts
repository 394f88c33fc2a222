import { AsyncLocalStorage } from "node:async_hooks";
import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, jobs, type Job, type JobKind } from "@/db/schema";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { dispatchJobs } from "./dispatch-jobs";

export type EnqueueJobInput = {
  kind: JobKind;
  businessId: string | null;
  payload: Record<string, unknown>;
  /** When the job is due; now (plus `delayMs`) when absent. */
  runAt?: Date | string;
  /** Due this long after now (on any clock), when `runAt` is absent. */
  delayMs?: number;
  /**
   * The row is due by the business's clock (sandbox clocks can be advanced, which moves it
   * earlier); `runAt` is then a time on that clock.
   */
  businessClock?: boolean;
  /** A second enqueue with the same key is ignored (and returns null). */
  dedupeKey?: string;
  maxAttempts?: number;
};

export type Announced = Pick<Job, "id" | "kind" | "businessId"> & {
  /** Not due for a while (a session's expiry, 24 h on): announced to Inngest, no wake-up of the embedded worker. */
  dueLater?: boolean;
};

// Jobs enqueued inside transactionWithJobs(), to announce once the transaction has committed.
const enqueuedInScope = new AsyncLocalStorage<Announced[]>();

/**
 * Writes one outbox row. Call it with the transaction that makes the change causing the work,
 * so the work exists if and only if the change committed.
 */
export async function enqueueJob(tx: Db, input: EnqueueJobInput): Promise<Job | null> {
  const [job] = await jobInsert(tx, input).returning();
  if (job) enqueuedInScope.getStore()?.push(job);
  return job ?? null;
}

/**
 * enqueueJob's row as SQL to embed in the statement that makes the change (a data-modifying
 * CTE, `RETURNING id`), to save a round trip: the row is written by that statement or not at all.
 * Once the statement has answered the job's id (null: a duplicate `dedupeKey`, nothing written),
 * hand the job to `announceJob`.
 */
export function embeddedJob(tx: Db, input: EnqueueJobInput): { sql: SQL; job: Announced } {
  const id = newId("job");
  return { sql: sql`${jobInsert(tx, input, id).getSQL()} returning ${jobs.id}`, job: { id, kind: input.kind, businessId: input.businessId } };
}

/**
 * An EnqueueJobInput whose per-call values are placeholders (`sql.placeholder`), for a job
 * embedded in a prepared statement; `kind`, `businessClock` and `maxAttempts` are fixed in it.
 */
export type JobTemplate = Omit<EnqueueJobInput, "businessId" | "payload" | "runAt" | "dedupeKey" | "delayMs"> & {
  businessId: Placeholder;
  payload: Placeholder;
  /** A time as a string (see EnqueueJobInput.runAt). */
  runAt: Placeholder;
  dedupeKey: Placeholder;
};

/**
 * embeddedJob's SQL with placeholders, built once for a prepared statement. The caller fills
 * `template`'s placeholders and `id` (a fresh `newId("job")`) on each execution, and announces
 * the job when the statement answers its id.
 */
export function embeddedJobTemplate(tx: Db, template: JobTemplate, id: Placeholder): SQL {
  return sql`${jobInsert(tx, template, id).getSQL()} returning ${jobs.id}`;
}

/** Announces an embedded job once its statement (or the transaction around it) has committed. */
export function announceJob(job: Announced): void {
  enqueuedInScope.getStore()?.push(job);
}

function jobInsert(tx: Db, input: EnqueueJobInput | JobTemplate, id: string | Placeholder = newId("job")) {
  const at =
    input.runAt !== undefined
      ? sql`${toTimestamp(input.runAt)}::timestamptz`
      : "delayMs" in input && input.delayMs
        ? sql`now() + ${input.delayMs}::float8 * interval '1 millisecond'`
        : sql`now()`;
  // A business-clock time becomes real time by taking off the business's clock offset ("now" is
  // now on every clock).
  const runAt =
    input.businessClock && input.businessId && input.runAt !== undefined
      ? sql`${at} - (select ${businesses.clockOffsetMs} from ${businesses} where ${businesses.id} = ${input.businessId})::float8 * interval '1 millisecond'`
      : at;
  return tx
    .insert(jobs)
    .values({
      id,
      kind: input.kind,
      businessId: input.businessId,
      payload: input.payload,
      runAt,
      businessClock: input.businessClock ?? false,
      dedupeKey: input.dedupeKey ?? null,
      ...(input.maxAttempts ? { maxAttempts: input.maxAttempts } : {}),
    })
    .onConflictDoNothing({ target: jobs.dedupeKey });
}

/**
 * db.transaction(fn), then, once it has committed, announces the jobs enqueued inside it (wakes
 * the embedded worker, or sends Inngest events). Without it the work still happens: the worker
 * polls and Inngest's cron re-sends due rows; this only makes it start at once.
 */
export async function transactionWithJobs<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  if (enqueuedInScope.getStore()) return db.transaction((tx) => fn(tx)); // the outer scope announces
  return announcingAfter(db, () => db.transaction((tx) => fn(tx)));
}

/**
 * For a change written by one statement (atomic by itself, so no BEGIN and COMMIT round trips):
 * runs `fn` with `db` and announces its jobs once it has returned. Inside transactionWithJobs
 * (`db` is then its transaction), the outer scope announces them after its commit.
 */
export async function statementWithJobs<T>(db: Db, fn: (db: Db) => Promise<T>): Promise<T> {
  if (enqueuedInScope.getStore()) return fn(db);
  return announcingAfter(db, () => fn(db));
}

async function announcingAfter<T>(db: Db, run: () => Promise<T>): Promise<T> {
  const enqueued: Announced[] = [];
  const result = await enqueuedInScope.run(enqueued, run);
  if (enqueued.length)
    await dispatchJobs(db, enqueued).catch((error: unknown) => log.warn("job dispatch failed", { error }));
  return result;
}

function toTimestamp(value: Date | string | Placeholder): string | Placeholder {
  return value instanceof Date ? value.toISOString() : value;
}
