import { createHmac } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businessProviders } from "@/db/schema";
import { decrypt, encrypt, safeEqual } from "@/lib/crypto";
import { randomToken } from "@/lib/ids";

/** The sandbox provider signs its webhooks like Stripe does: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const sandboxSignatureHeader = "sandbox-signature";

/** Signatures older (or newer) than this are refused: a replayed delivery is worthless. */
export const sandboxSignatureToleranceSeconds = 300;

export function signSandboxPayload(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

export function verifySandboxSignature(
  payload: string,
  header: string | null,
  secret: string,
  now = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(
    header.split(",").map((part) => {
      const at = part.indexOf("=");
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    }),
  );
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(now - timestamp) > sandboxSignatureToleranceSeconds)
    return false;
  const expected = signSandboxPayload(payload, secret, timestamp).split("v1=")[1]!;
  return typeof parts.v1 === "string" && safeEqual(parts.v1, expected);
}

type SandboxConfig = { webhookSecret?: string };

/**
 * The secret the sandbox provider signs a business's webhooks with (the "endpoint secret" a real
 * provider would show in its dashboard), created on first use and kept encrypted in the business's
 * sandbox provider configuration.
 */
export async function sandboxWebhookSecret(db: Db, businessId: string): Promise<string> {
  return db.transaction(async (tx) => {
    const where = and(
      eq(businessProviders.businessId, businessId),
      eq(businessProviders.provider, "sandbox"),
    );
    const [row] = await tx
      .select({ configEnc: businessProviders.configEnc })
      .from(businessProviders)
      .where(where)
      .for("update");
    if (!row) throw new Error(`Business ${businessId} has no sandbox provider`);
    const config = (row.configEnc ? JSON.parse(decrypt(row.configEnc)) : {}) as SandboxConfig;
    if (config.webhookSecret) return config.webhookSecret;
    const webhookSecret = `sbxsec_${randomToken(32)}`;
    await tx
      .update(businessProviders)
      .set({ configEnc: encrypt(JSON.stringify({ ...config, webhookSecret })) })
      .where(where);
    return webhookSecret;
  });
}
