import { secretKeyMaterial } from "@/lib/crypto";
import { env } from "@/lib/env";

/**
 * Auth.js signs and encrypts its session cookie with this: AUTH_SECRET when set, else a key derived
 * from the encryption key, so a fresh checkout needs nothing more and every instance sharing the
 * encryption key accepts the same sessions.
 */
export function authSecret(): string {
  return env().AUTH_SECRET ?? secretKeyMaterial("auth-secret").toString("hex");
}
