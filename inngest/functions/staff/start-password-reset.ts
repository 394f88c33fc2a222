import { inngest, passwordResetRequested } from "@/inngest/client";
import { runJobSteps } from "../jobs/run-job-steps";

/** Writes a requested password reset's token and e-mail (handler: lib/staff/password-reset.ts). */
export const startPasswordReset = inngest.createFunction(
  { id: "start-password-reset", triggers: [passwordResetRequested], concurrency: { limit: 4 } },
  async ({ event, step, runId }) => runJobSteps(step, event.data.jobId, runId),
);
