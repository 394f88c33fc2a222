import { inngest, subscriptionSetupDue } from "@/inngest/client";
import { runJobSteps } from "../jobs/run-job-steps";

/** Creates the subscription at the card-billing provider after the first payment (handler registered in lib/job-handlers.ts). */
export const setUpSubscription = inngest.createFunction(
  {
    id: "set-up-subscription",
    triggers: [subscriptionSetupDue],
    concurrency: { limit: 5, key: "event.data.businessId" },
  },
  async ({ event, step, runId }) => runJobSteps(step, event.data.jobId, runId),
);
