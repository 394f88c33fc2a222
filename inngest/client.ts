import { eventType, Inngest, type Logger } from "inngest";
import { z } from "zod";
import type { JobKind } from "@/db/schema";
import { log } from "@/lib/log";

// Every event names one outbox row; the function claims and runs that row (lib/jobs), so Inngest
// and the embedded worker execute the very same idempotent code.
const jobData = z.object({ jobId: z.string().min(1), businessId: z.string().nullable() });

export const webhookDeliveryDue = eventType("kassa/webhook.delivery-due", { schema: jobData });
export const sessionExpiryDue = eventType("kassa/session.expiry-due", { schema: jobData });
export const providerEventReceived = eventType("kassa/provider-event.received", { schema: jobData });
export const subscriptionSetupDue = eventType("kassa/subscription.setup-due", { schema: jobData });
export const refundDue = eventType("kassa/refund.due", { schema: jobData });
export const mailDue = eventType("kassa/mail.due", { schema: jobData });
export const passwordResetRequested = eventType("kassa/password-reset.requested", { schema: jobData });
export const recoveryNoticeDue = eventType("kassa/recovery.notice-due", { schema: jobData });

/** The event announcing each job kind. */
export const jobEventTypes = {
  deliver_webhook: webhookDeliveryDue,
  expire_session: sessionExpiryDue,
  process_provider_event: providerEventReceived,
  setup_subscription: subscriptionSetupDue,
  refund_payment: refundDue,
  send_mail: mailDue,
  start_password_reset: passwordResetRequested,
  recovery_notice: recoveryNoticeDue,
} satisfies Record<JobKind, unknown>;

/** Inngest's logs go through Kassa's structured logger (lib/log.ts). */
function logger(): Logger {
  const write =
    (level: keyof typeof log) =>
    (...args: unknown[]) => {
      // Pino-style calls put the fields first and the message after them.
      const message = args.find((a): a is string => typeof a === "string") ?? "inngest";
      const details = args.filter((a) => a !== message);
      log[level](`inngest: ${message}`, details.length ? { details } : undefined);
    };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}

export const inngest = new Inngest({ id: "kassa", logger: logger() });

/**
 * The event for one job. Its id makes Inngest ignore a second send of the same announcement
 * (`window` distinguishes a deliberate re-send by the cron from a duplicate).
 */
export function jobEvent(job: { id: string; kind: JobKind; businessId: string | null }, window = "0") {
  return jobEventTypes[job.kind].create(
    { jobId: job.id, businessId: job.businessId },
    { id: `${job.id}:${window}` },
  );
}
