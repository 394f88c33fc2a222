import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
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

// Jobs enqueued inside transactionWithJobs(), to announce once the transaction has committed.
const enqueuedInScope = new AsyncLocalStorage<Job[]>();

/**
 * Writes one outbox row. Call it with the transaction that makes the change causing the work,
 * so the work exists if and only if the change committed.
 */
export async function enqueueJob(tx: Db, input: EnqueueJobInput): Promise<Job | null> {
  const at =
    input.runAt !== undefined
      ? sql`${toTimestamp(input.runAt)}::timestamptz`
      : input.delayMs
        ? sql`now() + ${input.delayMs}::float8 * interval '1 millisecond'`
        : sql`now()`;
  // A business-clock time becomes real time by taking off the business's clock offset ("now" is
  // now on every clock).
  const runAt =
    input.businessClock && input.businessId && input.runAt !== undefined
      ? sql`${at} - (select ${businesses.clockOffsetMs} from ${businesses} where ${businesses.id} = ${input.businessId})::float8 * interval '1 millisecond'`
      : at;
  const [job] = await tx
    .insert(jobs)
    .values({
      id: newId("job"),
      kind: input.kind,
      businessId: input.businessId,
      payload: input.payload,
      runAt,
      businessClock: input.businessClock ?? false,
      dedupeKey: input.dedupeKey ?? null,
      ...(input.maxAttempts ? { maxAttempts: input.maxAttempts } : {}),
    })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning();
  if (job) enqueuedInScope.getStore()?.push(job);
  return job ?? null;
}

/**
 * db.transaction(fn), then, once it has committed, announces the jobs enqueued inside it (wakes
 * the embedded worker, or sends Inngest events). Without it the work still happens: the worker
 * polls and Inngest's cron re-sends due rows; this only makes it start at once.
 */
export async function transactionWithJobs<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  if (enqueuedInScope.getStore()) return db.transaction((tx) => fn(tx)); // the outer scope announces
  const enqueued: Job[] = [];
  const result = await enqueuedInScope.run(enqueued, () => db.transaction((tx) => fn(tx)));
  if (enqueued.length)
    await dispatchJobs(db, enqueued).catch((error: unknown) => log.warn("job dispatch failed", { error }));
  return result;
}

function toTimestamp(value: Date | string): string {
  return typeof value === "string" ? value : value.toISOString();
}
