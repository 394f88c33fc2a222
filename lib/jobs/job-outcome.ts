import type { Db } from "@/db/client";
import type { Job } from "@/db/schema";
import type { JobContext } from "@/lib/job-context";

/**
 * What a handler reports: finished, to run again at a time (its own schedule), or given up.
 * A retry's `at` is real time, or a time on the business's clock with `clock: "business"` (a
 * sandbox business's clock can be advanced; the row must then be a business-clock row, which
 * advancing the clock moves earlier).
 */
export type JobOutcome =
  /**
   * `finished`: the handler already marked its row done in its own last write (jobDoneSql, fenced
   * by the row's lock token, in the same statement as the work it records), so nothing is left to
   * record: one round trip less per job (the webhook attempt's record, decision 0032).
   */
  | { status: "done"; note?: string; finished?: true }
  | { status: "retry"; at: Date; clock?: "real" | "business"; note?: string }
  | { status: "failed"; error: string };

/**
 * A job handler. It must be idempotent: it may run twice for one row (a lease that ran out while
 * it was still working), so it locks and re-reads what it changes and does nothing when the work
 * is already done.
 */
export type JobHandler = (db: Db, job: Job, ctx: JobContext) => Promise<JobOutcome>;
