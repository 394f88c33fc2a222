import type { GetStepTools } from "inngest";
import type { inngest } from "@/inngest/client";
import { defaultJobContext } from "@/lib/job-context";
import { runJobById, type RunJobResult } from "@/lib/jobs/run-job";
import { getDb } from "@/lib/db";

type StepTools = Pick<GetStepTools<typeof inngest>, "run" | "sleepUntil">;

/** Rounds of one function run: a webhook has at most 4 attempts, an expiry 1 plus a wait. */
const maxRounds = 8;

/**
 * Runs one outbox row the Inngest way: each run of the row is a step (memoised, so a replayed
 * function does not run it again), and when the row asks to run later (the next webhook attempt,
 * a session not expired yet) the function sleeps until then. The row's claim and lease make a
 * duplicate event, or a race with the sandbox clock, harmless.
 */
export async function runJobSteps(step: StepTools, jobId: string, runId: string): Promise<RunJobResult> {
  let result: RunJobResult = { status: "busy" };
  for (let round = 1; round <= maxRounds; round++) {
    result = (await step.run(`run-job-${round}`, async () =>
      runJobById(await getDb(), jobId, defaultJobContext(), { workerId: `inngest:${runId}` }),
    )) as RunJobResult;
    if (result.status !== "retry" && result.status !== "not_due") return result;
    await step.sleepUntil(`wait-${round}`, result.at);
  }
  // Still not finished: the cron (redispatch-due-jobs) announces the row again when it is due.
  return result;
}
