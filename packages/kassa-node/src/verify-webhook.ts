import { createHmac, timingSafeEqual } from "node:crypto";
import type { WebhookPayload } from "./webhook-payload.js";

/**
 * Checks that a webhook delivery comes from Kassa, over the raw bytes of its body:
 *
 * 1. `Signature`: lowercase hex HMAC-SHA256 of the raw body keyed with the whole token string
 *    (`whsec_` included), as the interface requires;
 * 2. Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`): `v1,<base64
 *    HMAC-SHA256 of "{id}.{timestamp}.{body}">` keyed with the base64 part of the token, and the
 *    timestamp no further than `toleranceSeconds` from now (replay protection).
 *
 * Both must hold; every comparison is constant-time. Returns the parsed event, or throws a
 * {@link WebhookVerificationError}.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  token: string | readonly string[],
  options: VerifyWebhookOptions = {},
): WebhookPayload {
  const tokens = typeof token === "string" ? [token] : [...token];
  if (tokens.length === 0 || tokens.some((t) => typeof t !== "string" || t.length === 0))
    throw new TypeError("verifyWebhook needs the webhook token (whsec_…)");
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : Buffer.from(rawBody);
  const read = headerReader(headers);

  const signature = read("signature");
  const id = read("webhook-id");
  const timestamp = read("webhook-timestamp");
  const standardSignatures = read("webhook-signature");

  if (!signature) throw new WebhookVerificationError("missing_header", "The Signature header is missing");
  if (!id || !timestamp || !standardSignatures)
    throw new WebhookVerificationError(
      "missing_header",
      "A Standard Webhooks header (webhook-id, webhook-timestamp, webhook-signature) is missing",
    );

  if (!tokens.some((t) => hexSignatureMatches(signature, body, t)))
    throw new WebhookVerificationError("signature_mismatch", "The Signature header does not match the body");

  checkTimestamp(timestamp, options);
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, "utf8"), body]);
  const offered = standardSignatures
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .map((s) => Buffer.from(s.slice(3), "base64"));
  const expected = tokens.map((t) => createHmac("sha256", standardWebhooksKey(t)).update(signed).digest());
  if (!offered.some((o) => expected.some((e) => sameBytes(o, e))))
    throw new WebhookVerificationError(
      "signature_mismatch",
      "No webhook-signature matches the body, webhook-id and webhook-timestamp",
    );

  let event: unknown;
  try {
    event = JSON.parse(body.toString("utf8"));
  } catch {
    throw new WebhookVerificationError("invalid_body", "The body is not JSON");
  }
  if (
    !event ||
    typeof event !== "object" ||
    Array.isArray(event) ||
    typeof (event as { type?: unknown }).type !== "string"
  )
    throw new WebhookVerificationError("invalid_body", "The body is not a Kassa event");
  return event as WebhookPayload;
}

/** A `Headers` object (fetch, Next.js) or a plain record (Node's `req.headers`, Express); names in any case. */
export type WebhookHeaders = Pick<Headers, "get"> | Record<string, string | readonly string[] | undefined>;

export type VerifyWebhookOptions = {
  /** How far `webhook-timestamp` may be from now, either way, in seconds. Default 300 (5 minutes), as the Standard Webhooks libraries. */
  toleranceSeconds?: number;
  /** The time to compare `webhook-timestamp` with; default the current time. */
  now?: Date;
};

export type WebhookVerificationErrorCode =
  | "missing_header"
  | "signature_mismatch"
  | "invalid_timestamp"
  | "timestamp_too_old"
  | "timestamp_too_new"
  | "invalid_body";

/** The delivery did not prove it comes from Kassa: answer it with a 4xx and do not process it. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  constructor(
    readonly code: WebhookVerificationErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const defaultToleranceSeconds = 300;

function headerReader(headers: WebhookHeaders): (name: string) => string | null {
  // Duck-typed: Next.js's `headers()` and other fetch-like Headers are not instances of the global class.
  if (typeof (headers as Headers).get === "function") return (name) => (headers as Headers).get(name);
  const lowered = new Map<string, string>();
  for (const [name, value] of Object.entries(
    headers as Record<string, string | readonly string[] | undefined>,
  )) {
    if (value === undefined) continue;
    const joined = typeof value === "string" ? value : value.join(" ");
    const key = name.toLowerCase();
    // Two spellings of one header are joined, as a fetch Headers object joins repeated headers.
    lowered.set(key, lowered.has(key) ? `${lowered.get(key)} ${joined}` : joined);
  }
  return (name) => lowered.get(name) ?? null;
}

function hexSignatureMatches(header: string, body: Buffer, token: string): boolean {
  const value = header.trim();
  if (!/^[0-9a-fA-F]{64}$/.test(value)) return false;
  return sameBytes(Buffer.from(value, "hex"), createHmac("sha256", token).update(body).digest());
}

/** The Standard Webhooks key of a token: the base64 after `whsec_`, decoded (what the `standardwebhooks` libraries use). */
function standardWebhooksKey(token: string): Buffer {
  return Buffer.from(token.startsWith("whsec_") ? token.slice("whsec_".length) : token, "base64");
}

function checkTimestamp(header: string, options: VerifyWebhookOptions): void {
  if (!/^\d{1,12}$/.test(header.trim()))
    throw new WebhookVerificationError("invalid_timestamp", "webhook-timestamp is not a number of seconds");
  const sentAt = Number(header.trim());
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? defaultToleranceSeconds;
  if (!(tolerance >= 0)) throw new TypeError("toleranceSeconds must be a number of seconds, 0 or more");
  if (now - sentAt > tolerance)
    throw new WebhookVerificationError(
      "timestamp_too_old",
      `webhook-timestamp is more than ${tolerance} s old`,
    );
  if (sentAt - now > tolerance)
    throw new WebhookVerificationError(
      "timestamp_too_new",
      `webhook-timestamp is more than ${tolerance} s in the future`,
    );
}

/** Constant-time equality; a length difference is no secret (both are HMAC-SHA256 digests). */
function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
