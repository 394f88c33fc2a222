import type { SendWebhookResult } from "@/lib/webhooks/send-webhook";
import { log } from "@/lib/log";
import { metrics } from "@/lib/metrics/registry";

/** succeeded (2xx), http_error (any other answer), network_error (no answer), refused (never sent). */
export function webhookOutcome(result: SendWebhookResult): string {
  if (result.ok) return "succeeded";
  if (result.refused) return "refused";
  return result.statusCode === null ? "network_error" : "http_error";
}

/**
 * Counts a delivery attempt by outcome (kassa_webhook_deliveries_total) and times it; an attempt
 * that failed is a `warn` line too, with the event, the attempt and what went wrong.
 */
export function observeWebhookDelivery(
  result: SendWebhookResult,
  attempt: { eventId: string; deliveryId: string; attempt: number },
): void {
  const outcome = webhookOutcome(result);
  const m = metrics();
  m.webhookDeliveries.inc({ outcome });
  m.webhookDuration.observe({ outcome }, result.durationMs / 1000);
  if (!result.ok)
    log.warn("webhook attempt failed", {
      ...attempt,
      outcome,
      statusCode: result.statusCode,
      error: result.error,
    });
}
