import { inngest, providerEventReceived } from "@/inngest/client";
import { runJobSteps } from "../jobs/run-job-steps";

/** Processes one verified inbound provider event (its handler is registered in lib/job-handlers.ts). */
export const processProviderEvent = inngest.createFunction(
  {
    id: "process-provider-event",
    triggers: [providerEventReceived],
    // Events of one business in arrival order, one at a time.
    concurrency: { limit: 1, key: "event.data.businessId" },
  },
  async ({ event, step, runId }) => runJobSteps(step, event.data.jobId, runId),
);
