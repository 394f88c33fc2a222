import type { JobKind } from "@/db/schema";
import { processProviderEventJob } from "@/lib/payments/provider-events";
import { refundPaymentJob } from "@/lib/payments/refund-payment";
import { deliverWebhookJob } from "@/lib/webhooks/deliver-webhook";
import type { JobHandler } from "./job-outcome";
import { expireSessionJob } from "./session-expiry";

/** A kind whose handler is not written yet: its rows wait (retried every 10 minutes) rather than fail. */
function awaitingHandler(kind: JobKind): JobHandler {
  return async () => ({
    status: "retry",
    at: new Date(Date.now() + 10 * 60_000),
    note: `no handler for ${kind} jobs yet`,
  });
}

/** The handler of each job kind; every executor runs jobs through this table. */
const handlers: Record<JobKind, JobHandler> = {
  deliver_webhook: deliverWebhookJob,
  expire_session: expireSessionJob,
  process_provider_event: processProviderEventJob,
  // Wired by the subscriptions issue (replace with its handler).
  setup_subscription: awaitingHandler("setup_subscription"),
  refund_payment: refundPaymentJob,
};

export function jobHandler(kind: JobKind): JobHandler {
  return handlers[kind] ?? awaitingHandler(kind);
}

/** Tests only: replaces a kind's handler; returns the function that restores it. */
export function overrideJobHandler(kind: JobKind, handler: JobHandler): () => void {
  const previous = handlers[kind];
  handlers[kind] = handler;
  return () => {
    handlers[kind] = previous;
  };
}
