import { pruneExpiredRows } from "./housekeeping/prune-expired-rows";
import { redispatchDueJobs } from "./jobs/redispatch-due-jobs";
import { reconcilePayments } from "./payments/reconcile-payments";
import { refundPayment } from "./payments/refund-payment";
import { processProviderEvent } from "./provider-events/process-provider-event";
import { sendMail } from "./mail/send-mail";
import { startPasswordReset } from "./staff/start-password-reset";
import { sendRecoveryNotice } from "./recovery/send-recovery-notice";
import { expireSession } from "./sessions/expire-session";
import { setUpSubscription } from "./subscriptions/set-up-subscription";
import { deliverWebhook } from "./webhooks/deliver-webhook";

/** Every function served at /api/inngest: one per job kind, plus the crons (due work, housekeeping, reconciliation). */
export const functions = [
  deliverWebhook,
  expireSession,
  processProviderEvent,
  setUpSubscription,
  refundPayment,
  sendMail,
  startPasswordReset,
  sendRecoveryNotice,
  redispatchDueJobs,
  pruneExpiredRows,
  reconcilePayments,
];
