import { createHmac } from "node:crypto";
import { secretKeyMaterial, sha256Hex } from "@/lib/crypto";
import { origin } from "@/lib/env";

/**
 * The management link's token: HMAC-SHA256 of the subscription id under a key derived from
 * ENCRYPTION_KEY, 256 bits in base64url (decision 0013). Only its SHA-256 is stored; the link can
 * still be shown again (it is recomputed), and a copy of the database alone reveals no token.
 */
export function managementToken(subscriptionId: string): string {
  return createHmac("sha256", secretKeyMaterial("subscription-management-token"))
    .update(subscriptionId)
    .digest("base64url");
}

export function managementTokenDigest(token: string): string {
  return sha256Hex(token);
}

/** `{ORIGIN}/manage/{token}`. */
export function managementUrl(subscriptionId: string): string {
  return `${origin()}/manage/${managementToken(subscriptionId)}`;
}
