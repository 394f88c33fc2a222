import { inngest, webhookDeliveryDue } from "@/inngest/client";
import { runJobSteps } from "../jobs/run-job-steps";

/** One webhook event's delivery: up to 4 attempts on the retry schedule (lib/webhooks/deliver-webhook.ts). */
export const deliverWebhook = inngest.createFunction(
  {
    id: "deliver-webhook",
    triggers: [webhookDeliveryDue],
    // One merchant's slow endpoint must not hold everyone else's deliveries.
    concurrency: { limit: 10, key: "event.data.businessId" },
  },
  async ({ event, step, runId }) => runJobSteps(step, event.data.jobId, runId),
);
