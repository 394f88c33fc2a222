import { inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs, type Job } from "@/db/schema";
import { inngestEnabled } from "@/lib/env";
import { wakeLocalExecutors } from "./local-executors";

/**
 * Announces committed jobs to whichever executor runs them: Inngest events when Inngest is
 * configured, otherwise a wake-up of the embedded worker(s) in this process (unless every job is
 * due later).
 */
export async function dispatchJobs(
  db: Db,
  committed: (Pick<Job, "id" | "kind" | "businessId"> & { dueLater?: boolean })[],
): Promise<void> {
  if (committed.length === 0) return;
  if (!inngestEnabled()) {
    // A job due later is found by the worker's poll; waking it now would only cost a claim that
    // finds nothing (one per POST /session under load).
    if (committed.some((job) => !job.dueLater)) wakeLocalExecutors();
    return;
  }
  // Inngest's client loads only where it is configured: without it the process never holds it.
  const { inngest, jobEvent } = await import("@/inngest/client");
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
