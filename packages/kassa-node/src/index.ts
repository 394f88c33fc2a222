export {
  createKassaClient,
  withIdempotencyKey,
  type KassaClient,
  type KassaClientOptions,
  type KassaPaths,
  type KassaSchemas,
} from "./client.js";
export {
  defaultToleranceSeconds,
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookHeaders,
  type WebhookVerificationErrorCode,
} from "./verify-webhook.js";
export { KassaApiError, unwrap } from "./unwrap.js";
export type { WebhookPayload, WebhookEventType } from "./webhook-payload.js";
