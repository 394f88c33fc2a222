import type { SendWebhookResult } from "@/lib/webhooks/send-webhook";
import { metrics } from "./registry";

/** succeeded (2xx), http_error (any other answer), network_error (no answer), refused (never sent). */
export function webhookOutcome(result: SendWebhookResult): string {
  if (result.ok) return "succeeded";
  if (result.refused) return "refused";
  return result.statusCode === null ? "network_error" : "http_error";
}

export function observeWebhookDelivery(result: SendWebhookResult): void {
  const outcome = webhookOutcome(result);
  const m = metrics();
  m.webhookDeliveries.inc({ outcome });
  m.webhookDuration.observe({ outcome }, result.durationMs / 1000);
}
