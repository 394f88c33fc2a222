import { inngest, sessionExpiryDue } from "@/inngest/client";
import { runJobSteps } from "../jobs/run-job-steps";

/** Expires an unpaid session at its expires_at (lib/sessions/expire-session.ts): sleeps until then. */
export const expireSession = inngest.createFunction(
  { id: "expire-session", triggers: [sessionExpiryDue] },
  async ({ event, step, runId }) => runJobSteps(step, event.data.jobId, runId),
);
