import { webhookDeliveryOptions, type WebhookDeliveryOptions } from "@/lib/webhooks/delivery-options";

/** What job handlers may be configured with, per executor (tests compress schedules, inject DNS). */
export type JobContext = {
  webhooks: WebhookDeliveryOptions;
};

export type JobContextOverrides = { webhooks?: Partial<WebhookDeliveryOptions> };

export function defaultJobContext(overrides: JobContextOverrides = {}): JobContext {
  return { webhooks: webhookDeliveryOptions(overrides.webhooks) };
}
