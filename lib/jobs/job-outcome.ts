import type { Db } from "@/db/client";
import type { Job } from "@/db/schema";
import type { JobContext } from "./context";

/** What a handler reports: finished, to run again at a time (its own schedule), or given up. */
export type JobOutcome =
  | { status: "done"; note?: string }
  | { status: "retry"; at: Date; note?: string }
  | { status: "failed"; error: string };

/**
 * A job handler. It must be idempotent: it may run twice for one row (a lease that ran out while
 * it was still working), so it locks and re-reads what it changes and does nothing when the work
 * is already done.
 */
export type JobHandler = (db: Db, job: Job, ctx: JobContext) => Promise<JobOutcome>;
