import { createHash, randomBytes } from "node:crypto";

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += base62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Stripe-looking object ids: `pi_3Pgafy...` (prefix plus 24 base62 characters). */
export function newObjectId(prefix: string): string {
  return `${prefix}_${randomBase62(24)}`;
}

export const newRequestId = () => `req_${randomBase62(14)}`;
export const newWebhookSecret = () => `whsec_${randomBase62(32)}`;
export const newClientSecret = (id: string) => `${id}_secret_${randomBase62(25)}`;

/** Same card number, same fingerprint within one account (as on Stripe). */
export function cardFingerprint(accountId: string, number: string): string {
  const digest = createHash("sha256").update(`${accountId}:${number}`).digest();
  let out = "";
  for (const byte of digest.subarray(0, 16)) out += base62[byte % 62];
  return out;
}
