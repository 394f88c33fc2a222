import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs } from "@/db/schema";
import { claimJobs } from "./claim-jobs";
import type { JobContext } from "@/lib/job-context";
import { executeClaimedJob } from "./run-job";

/**
 * Runs every job of one business that is due now, including the jobs those jobs create (an
 * expiry's webhook), and waits for due jobs another worker is running. Returns how many it ran.
 * Bounded by `deadlineMs`: a receiver that hangs cannot hold the caller forever.
 */
export async function runDueJobs(
  db: Db,
  options: {
    businessId: string;
    ctx: JobContext;
    concurrency?: number;
    leaseMs?: number;
    deadlineMs?: number;
  },
): Promise<number> {
  const deadline = Date.now() + (options.deadlineMs ?? 60_000);
  const workerId = `clock:${options.businessId}`;
  let ran = 0;
  while (Date.now() < deadline) {
    const claimed = await claimJobs(db, {
      workerId,
      limit: options.concurrency ?? 4,
      leaseMs: options.leaseMs ?? 60_000,
      businessId: options.businessId,
    });
    if (claimed.length) {
      await Promise.all(claimed.map((job) => executeClaimedJob(db, job, options.ctx)));
      ran += claimed.length;
      continue;
    }
    // Nothing claimed: either nothing is due, or another worker holds what is. A row that worker
    // is claiming right now is skipped by our claim (SKIP LOCKED) while its claim is not yet
    // committed, so it still reads `pending` and due here: waited for as well, not missed.
    const [busy] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(jobs)
      .where(
        and(
          eq(jobs.businessId, options.businessId),
          sql`(${jobs.status} = 'running' or (${jobs.status} = 'pending' and ${jobs.runAt} <= now()))`,
        ),
      );
    if (!busy?.n) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return ran;
}
