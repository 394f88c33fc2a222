import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, webhookTokenRotations, type Business } from "@/db/schema";
import { newWebhookToken } from "@/lib/businesses/create-business";
import { decrypt, encrypt } from "@/lib/crypto";
import { NotFoundError } from "@/lib/errors";
import { parseDbTime } from "@/lib/time";

/** How long the replaced token keeps signing (webhook-signature only) after a rotation. */
export const defaultRotationOverlapSeconds = 24 * 60 * 60;

/** The business's webhook token in clear (dashboard, CLI). */
export async function revealWebhookToken(db: Db, businessId: string): Promise<string> {
  const [row] = await db
    .select({ enc: businesses.webhookTokenEnc })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  if (!row) throw new NotFoundError("business_not_found", "No such business");
  return decrypt(row.enc);
}

/**
 * The tokens that sign a delivery now: the current one first, then the replaced one while its
 * overlap window lasts.
 */
export async function webhookSigningTokens(
  db: Db,
  business: Pick<Business, "id" | "webhookTokenEnc">,
  at = new Date(),
): Promise<[string, ...string[]]> {
  const current = decrypt(business.webhookTokenEnc);
  const [rotation] = await db
    .select()
    .from(webhookTokenRotations)
    .where(eq(webhookTokenRotations.businessId, business.id));
  if (rotation && parseDbTime(rotation.previousExpiresAt).getTime() > at.getTime())
    return [current, decrypt(rotation.previousTokenEnc)];
  return [current];
}

/**
 * Replaces the business's webhook token. For `overlapSeconds` (default 24 h) deliveries carry a
 * Standard Webhooks signature with each token, so receivers can switch at their own pace;
 * `Signature` (a single hex value) uses the new token at once. Returns the new token in clear.
 */
export async function rotateWebhookToken(
  db: Db,
  businessId: string,
  options: { overlapSeconds?: number } = {},
): Promise<{ token: string; previousValidUntil: Date }> {
  const overlapMs = (options.overlapSeconds ?? defaultRotationOverlapSeconds) * 1000;
  const token = newWebhookToken();
  const now = new Date();
  const previousValidUntil = new Date(now.getTime() + overlapMs);
  await db.transaction(async (tx) => {
    const [business] = await tx
      .select({ enc: businesses.webhookTokenEnc })
      .from(businesses)
      .where(eq(businesses.id, businessId))
      .for("update");
    if (!business) throw new NotFoundError("business_not_found", "No such business");
    await tx
      .update(businesses)
      .set({ webhookTokenEnc: encrypt(token) })
      .where(eq(businesses.id, businessId));
    const values = {
      previousTokenEnc: business.enc,
      previousExpiresAt: previousValidUntil.toISOString(),
      rotatedAt: now.toISOString(),
    };
    await tx
      .insert(webhookTokenRotations)
      .values({ businessId, ...values })
      .onConflictDoUpdate({ target: webhookTokenRotations.businessId, set: values });
  });
  return { token, previousValidUntil };
}
