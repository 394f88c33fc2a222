import type { components } from "./schema.js";

/**
 * The body of a webhook delivery (the document's `WebhookPayload`, generated from the schema Kassa
 * builds its payloads with). Optional fields are left out rather than sent as `null`.
 */
export type WebhookPayload = components["schemas"]["WebhookPayload"];

/** `succeeded`, `pending_review`, `declined`, `refunded`, `expired`, `incomplete`, `subscription_payment_failed`, `subscription_canceled`, and Kassa's `refunded_again`, `incomplete_again`. */
export type WebhookEventType = WebhookPayload["type"];
