import { env } from "@/lib/env";
import type { HostResolver } from "./address-policy";

/** How webhooks are delivered. Defaults come from the environment; tests compress the schedule. */
export type WebhookDeliveryOptions = {
  /** Delay before each attempt in milliseconds; its length is the number of attempts (4). */
  scheduleMs: number[];
  timeoutMs: number;
  allowPrivate: boolean;
  /** An endpoint failing every attempt this long (business clock) and for disableAfterEvents events is disabled. */
  disableAfterMs?: number;
  disableAfterEvents?: number;
  /** DNS resolution for deliveries; the system resolver when absent. */
  resolve?: HostResolver;
};

export function webhookDeliveryOptions(
  overrides: Partial<WebhookDeliveryOptions> = {},
): WebhookDeliveryOptions {
  const e = env();
  return {
    scheduleMs: e.WEBHOOK_RETRY_SCHEDULE.map((seconds) => Math.round(seconds * 1000)),
    timeoutMs: e.WEBHOOK_TIMEOUT_MS,
    allowPrivate: e.ALLOW_PRIVATE_WEBHOOK_URLS,
    disableAfterMs: Math.round(e.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000),
    disableAfterEvents: e.WEBHOOK_DISABLE_AFTER_EVENTS,
    ...overrides,
  };
}

/**
 * Delay before the attempt after `attemptsMade` attempts of a round. A Retry-After from the
 * receiver is honoured within the schedule: it can push the attempt later than planned, but
 * never past the schedule's longest delay, and it never adds an attempt.
 */
export function nextAttemptDelay(
  scheduleMs: number[],
  attemptsMade: number,
  retryAfterMs: number | null,
): number {
  const planned = scheduleMs[attemptsMade] ?? 0;
  if (retryAfterMs === null) return planned;
  const longest = Math.max(...scheduleMs);
  return Math.min(Math.max(planned, retryAfterMs), Math.max(longest, planned));
}
