import type { WebhookDelivery, WebhookEvent } from "@/db/schema";
import { parseDbTime, isoMicros } from "@/lib/time";
import type { WebhookPayload } from "./webhook-payload-schema";
import type { WebhookAttemptView, WebhookEventView } from "./webhook-schemas";
import { fixedRequestHeaders } from "./send-webhook";
import { signatureHeaders } from "./sign-webhook";
import { tokensSigningAt, type WebhookTokenHistory } from "./webhook-token";

// The shapes answered are the zod schemas of webhook-schemas.ts (also the OpenAPI document's).
export type { WebhookAttemptView, WebhookEventView } from "./webhook-schemas";

const time = (value: string | null) => (value === null ? null : isoMicros(value));

/**
 * Attempts recorded before migration 0011 have no stored headers: for them the headers are
 * computed again (the sender signed at the attempt's recorded start, with the tokens valid then),
 * and the signatures are left out when those tokens are no longer known. The token itself never
 * appears, only HMACs made with it.
 */
function reconstructedHeaders(
  event: WebhookEvent,
  attempt: WebhookDelivery,
  tokens: WebhookTokenHistory | null,
) {
  const startedAt = parseDbTime(attempt.startedAt);
  const signing = tokens ? tokensSigningAt(tokens, startedAt) : null;
  const signatures = signing ? signatureHeaders(signing, event.id, event.body, startedAt) : null;
  const headers: Record<string, string> = {
    ...fixedRequestHeaders(event.body),
    "webhook-id": event.id,
    "webhook-timestamp": String(Math.floor(startedAt.getTime() / 1000)),
  };
  if (signatures) {
    headers.Signature = signatures.Signature!;
    headers["webhook-signature"] = signatures["webhook-signature"]!;
  }
  return { headers, complete: signatures !== null };
}

/** Whether showing these attempts needs the token history (some lack stored headers). */
export const needsTokenHistory = (attempts: WebhookDelivery[]) =>
  attempts.some((a) => a.url !== null && a.requestHeaders === null);

/**
 * `tokens` is only read for attempts without stored headers (rows from before migration 0011);
 * null when none are shown.
 */
export function webhookAttemptView(
  event: WebhookEvent,
  attempt: WebhookDelivery,
  tokens: WebhookTokenHistory | null,
): WebhookAttemptView {
  const request = !attempt.url
    ? null
    : attempt.requestHeaders
      ? { headers: attempt.requestHeaders, complete: true }
      : reconstructedHeaders(event, attempt, tokens);
  return {
    number: attempt.number,
    source: attempt.source,
    round: attempt.round,
    status: attempt.outcome,
    started_at: isoMicros(attempt.startedAt),
    finished_at: time(attempt.finishedAt),
    duration_ms: attempt.durationMs,
    request:
      attempt.url && request
        ? { method: "POST", url: attempt.url, headers: request.headers, headers_complete: request.complete }
        : null,
    response: attempt.statusCode === null ? null : { status: attempt.statusCode, body: attempt.responseBody },
    error: attempt.error,
  };
}

export function webhookEventView(
  event: WebhookEvent,
  attempts: WebhookDelivery[],
  tokens: WebhookTokenHistory | null,
): WebhookEventView {
  // The body was written from a WebhookPayload (emit-webhook-event.ts, send-test-webhook-event.ts).
  const payload = JSON.parse(event.body) as WebhookPayload;
  return {
    id: event.id,
    type: event.type,
    test: payload.test === true,
    status: event.status,
    created_at: isoMicros(event.createdAt),
    session_id: event.sessionId,
    order_id: event.orderId,
    subscription_id: event.subscriptionId,
    payload,
    attempt_count: event.attemptCount,
    resend_count: event.round - 1,
    delivered_at: time(event.deliveredAt),
    next_attempt_at: time(event.nextAttemptAt),
    last_error: event.lastError,
    attempts: attempts.map((a) => webhookAttemptView(event, a, tokens)),
  };
}
