import { observeJobFailures, registerJobHandlers, type JobHandlerTable } from "@/lib/jobs/registry";
import { metrics } from "@/lib/metrics/registry";
import { sendMailJob } from "@/lib/mail/send-mail";
import { processProviderEventJob } from "@/lib/payments/provider-events";
import { refundPaymentJob } from "@/lib/payments/refund-payment";
import { recoveryNoticeJob } from "@/lib/recovery/recovery-notice-job";
import { expireSessionJob } from "@/lib/sessions/expire-session";
import { startPasswordResetJob } from "@/lib/staff/password-reset";
import { setupSubscriptionJob } from "@/lib/subscriptions/set-up-subscription";
import { deliverWebhookJob } from "@/lib/webhooks/deliver-webhook";

/** The handler of each job kind. */
export const jobHandlers: JobHandlerTable = {
  deliver_webhook: deliverWebhookJob,
  expire_session: expireSessionJob,
  process_provider_event: processProviderEventJob,
  refund_payment: refundPaymentJob,
  setup_subscription: setupSubscriptionJob,
  send_mail: sendMailJob,
  start_password_reset: startPasswordResetJob,
  recovery_notice: recoveryNoticeJob,
};

/** Called by every composition root that runs jobs, before it runs any. */
export function registerAllJobHandlers(): void {
  registerJobHandlers(jobHandlers);
  observeJobFailures((kind, outcome) => metrics().jobFailures.inc({ kind, outcome }));
}
