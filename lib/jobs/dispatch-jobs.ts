import { inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs, type Job } from "@/db/schema";
import { inngestEnabled } from "@/lib/env";
import { inngest, jobEvent } from "@/inngest/client";
import { wakeLocalExecutors } from "./local-executors";

/**
 * Announces committed jobs to whichever executor runs them: Inngest events when Inngest is
 * configured, otherwise a wake-up of the embedded worker(s) in this process.
 */
export async function dispatchJobs(
  db: Db,
  committed: Pick<Job, "id" | "kind" | "businessId">[],
): Promise<void> {
  if (committed.length === 0) return;
  if (!inngestEnabled()) {
    wakeLocalExecutors();
    return;
  }
  await inngest.send(committed.map((job) => jobEvent(job)));
  await db
    .update(jobs)
    .set({ dispatchedAt: sql`now()` })
    .where(
      inArray(
        jobs.id,
        committed.map((j) => j.id),
      ),
    );
}
