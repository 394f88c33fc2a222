export {
  createKassaClient,
  withIdempotencyKey,
  type KassaClient,
  type KassaClientOptions,
  type KassaPaths,
  type KassaSchemas,
} from "./client";
export {
  defaultToleranceSeconds,
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookHeaders,
  type WebhookVerificationErrorCode,
} from "./verify-webhook";
export type { WebhookEvent, WebhookEventType } from "./webhook-event";
