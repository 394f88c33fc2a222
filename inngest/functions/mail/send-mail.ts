import { inngest, mailDue } from "@/inngest/client";
import { runJobSteps } from "../jobs/run-job-steps";

/** Sends one e-mail of the outbox (handler: lib/mail/send-mail.ts). */
export const sendMail = inngest.createFunction(
  { id: "send-mail", triggers: [mailDue], concurrency: { limit: 4 } },
  async ({ event, step, runId }) => runJobSteps(step, event.data.jobId, runId),
);
