import { log } from "@/lib/log";
import { metrics } from "./registry";

/**
 * Counts one database error under its class (kassa_database_errors_total{kind}). The classifier
 * that maps a driver's error to a kind (connection lost, timeout, read-only, disk full) calls it
 * once per error it classifies; `kind` must come from that classifier's fixed set, never from an
 * error message (one series per message would grow without bound).
 */
export function countDatabaseError(kind: string): void {
  metrics().databaseErrors.inc({ kind });
}

// Refusals not yet logged, and when the last line was written, per status and reason.
const unlogged = new Map<string, { count: number; loggedAt: number }>();

/**
 * Counts a request refused rather than served (kassa_http_requests_rejected_total): a body too
 * large (413) or too slow (408), a rate limit (429), a service unavailable (503). `reason` is the
 * error code the answer carries. Logs a `warn` line for the first refusal of each kind and then at
 * most one a minute with how many came meanwhile: a flood of refusals is one line, not a flood.
 */
export function countRejectedRequest(status: number, reason: string): void {
  metrics().requestsRejected.inc({ status: String(status), reason });
  const key = `${status} ${reason}`;
  const entry = unlogged.get(key) ?? { count: 0, loggedAt: 0 };
  unlogged.set(key, entry);
  entry.count++;
  if (Date.now() - entry.loggedAt < 60_000) return;
  log.warn("requests refused", { status, reason, refused: entry.count });
  entry.count = 0;
  entry.loggedAt = Date.now();
}

/** Forgets when each kind of refusal was last logged (tests: a file run earlier in the process may have logged one). */
export function resetRefusalLog(): void {
  unlogged.clear();
}

/** The statuses counted as refusals when the API answers them (docs/operations.md#alerting). */
const refusalStatuses = new Set([408, 413, 429, 503]);

/**
 * Counts an API answer as a refusal when its status is one; the reason is its body's `error` code
 * when the body is the JSON text Kassa wrote (read without consuming the Response).
 */
export function countRefusedAnswer(status: number, jsonText: string | undefined): void {
  if (!refusalStatuses.has(status)) return;
  countRejectedRequest(status, errorCode(jsonText));
}

function errorCode(jsonText: string | undefined): string {
  if (!jsonText) return "unknown";
  try {
    const body: unknown = JSON.parse(jsonText);
    const code = (body as { error?: unknown } | null)?.error;
    // Codes are short identifiers (rate_limit_exceeded); anything else would be free text.
    return typeof code === "string" && /^[a-z0-9_]{1,64}$/.test(code) ? code : "unknown";
  } catch {
    return "unknown";
  }
}

/** Counts one HTTP request to a payment provider (kassa_provider_requests_total) by its outcome. */
export function countProviderRequest(provider: string, operation: string, outcome: string): void {
  metrics().providerRequests.inc({ provider, operation, outcome });
}
