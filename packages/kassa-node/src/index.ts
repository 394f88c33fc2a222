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
export { KassaApiError, unwrap } from "./unwrap";
export type { WebhookPayload, WebhookEventType } from "./webhook-payload";
