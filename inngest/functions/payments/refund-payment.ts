import { inngest, refundDue } from "@/inngest/client";
import { runJobSteps } from "../jobs/run-job-steps";

/** Executes one reserved refund at its provider (handler: lib/payments/refund-payment.ts). */
export const refundPayment = inngest.createFunction(
  {
    id: "refund-payment",
    triggers: [refundDue],
    concurrency: { limit: 1, key: "event.data.businessId" },
  },
  async ({ event, step, runId }) => runJobSteps(step, event.data.jobId, runId),
);
