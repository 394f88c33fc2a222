import { cron } from "inngest";
import { inngest, jobEvent } from "@/inngest/client";
import { getDb } from "@/lib/db";
import { claimUndispatchedDueJobs } from "@/lib/jobs/redispatch";

/**
 * Every minute, announces again the rows that are due and were not announced recently: a send
 * lost between commit and Inngest (process died, Inngest unreachable), or rows written outside
 * transactionWithJobs. The outbox, not the event, is the source of truth.
 */
export const redispatchDueJobs = inngest.createFunction(
  { id: "redispatch-due-jobs", triggers: [cron("* * * * *")] },
  async ({ step }) => {
    const due = await step.run("find-due-jobs", async () => claimUndispatchedDueJobs(await getDb()));
    if (due.length === 0) return { sent: 0 };
    await step.sendEvent(
      "announce-due-jobs",
      due.map((job) => jobEvent(job, job.window)),
    );
    return { sent: due.length };
  },
);
