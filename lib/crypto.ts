import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDir, env } from "@/lib/env";

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

let cachedKey: { source: string; key: Buffer } | undefined;

function parseKey(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  if (key.length !== 32) throw new Error("ENCRYPTION_KEY must be 32 bytes, as 64 hex digits or base64");
  return key;
}

/** ENCRYPTION_KEY, or a key generated once into DATA_DIR/encryption.key (embedded set-ups). */
function encryptionKey(): Buffer {
  const configured = env().ENCRYPTION_KEY;
  const source = configured ?? path.join(dataDir(), "encryption.key");
  if (cachedKey?.source === source) return cachedKey.key;
  let key: Buffer;
  if (configured) {
    key = parseKey(configured);
  } else {
    fs.mkdirSync(/*turbopackIgnore: true*/ path.dirname(source), { recursive: true });
    try {
      fs.writeFileSync(/*turbopackIgnore: true*/ source, randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    key = parseKey(fs.readFileSync(/*turbopackIgnore: true*/ source, "utf8").trim());
  }
  cachedKey = { source, key };
  return key;
}

/** AES-256-GCM; output `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function encrypt(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), body].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

export function decrypt(sealed: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("Unreadable encrypted value");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

/** A 32-byte key for one purpose, derived from the encryption key (HKDF-like: HMAC of the purpose). */
export function secretKeyMaterial(purpose: string): Buffer {
  return createHmac("sha256", encryptionKey()).update(`kassa:${purpose}`).digest();
}
