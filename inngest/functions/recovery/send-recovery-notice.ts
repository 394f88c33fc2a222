import { inngest, recoveryNoticeDue } from "@/inngest/client";
import { runJobSteps } from "../jobs/run-job-steps";

/** The notices before a renewal: renewal ahead, card expiring (handler: lib/recovery/recovery-notice-job.ts). */
export const sendRecoveryNotice = inngest.createFunction(
  { id: "send-recovery-notice", triggers: [recoveryNoticeDue], concurrency: { limit: 4 } },
  async ({ event, step, runId }) => runJobSteps(step, event.data.jobId, runId),
);
