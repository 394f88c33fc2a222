import { createHmac } from "node:crypto";

/**
 * `Signature`: lowercase hex HMAC-SHA256 of the exact raw body, keyed with the webhook token (its
 * UTF-8 bytes, `whsec_` prefix included), as the interface requires.
 */
export function payloadSignature(token: string, body: string): string {
  return createHmac("sha256", token).update(body, "utf8").digest("hex");
}

/**
 * The Standard Webhooks key of a token: the base64 part after `whsec_`, decoded, which is what the
 * `standardwebhooks` libraries derive from the same token string.
 */
export function standardWebhooksKey(token: string): Buffer {
  const key = Buffer.from(token.replace(/^whsec_/, ""), "base64");
  if (key.length === 0) throw new Error("webhook token has no key material");
  return key;
}

/** `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`. */
export function standardWebhooksSignature(
  token: string,
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  const mac = createHmac("sha256", standardWebhooksKey(token)).update(
    `${id}.${timestampSeconds}.${body}`,
    "utf8",
  );
  return `v1,${mac.digest("base64")}`;
}

/**
 * Headers of one attempt. `tokens[0]` is the current token; during a rotation's overlap the
 * previous one follows, and webhook-signature carries one signature per token (space-separated,
 * as Standard Webhooks allows) while Signature, a single hex value, uses the current token only.
 */
export function signatureHeaders(
  tokens: [string, ...string[]],
  eventId: string,
  body: string,
  at: Date,
): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    Signature: payloadSignature(tokens[0], body),
    "webhook-id": eventId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": tokens.map((t) => standardWebhooksSignature(t, eventId, timestamp, body)).join(" "),
  };
}
