import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { businesses, webhookTokenRotations, type Business } from "@/db/schema";
import { decrypt, encrypt } from "@/lib/crypto";
import { randomToken } from "@/lib/ids";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { parseDbTime } from "@/lib/time";

/** How long the replaced token keeps signing (webhook-signature only) after a rotation. */
export const defaultRotationOverlapSeconds = 24 * 60 * 60;
/** The longest overlap a rotation may ask for: 7 days. 0 ends the old token at once (a leak). */
export const maxRotationOverlapSeconds = 7 * 24 * 60 * 60;

/** A new signing token (`whsec_…`), for a new business or a rotation. */
export function newWebhookToken(): string {
  return `whsec_${randomToken(32)}`;
}

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
  const [rotation] = await db
    .select()
    .from(webhookTokenRotations)
    .where(eq(webhookTokenRotations.businessId, business.id));
  return signingTokensOf(business.webhookTokenEnc, rotation ?? null, at);
}

/**
 * webhookSigningTokens' rule over rows already read (the delivery reads them with its event, in
 * one query): the current token, then the replaced one while its overlap lasts.
 */
export function signingTokensOf(
  currentEnc: string,
  rotation: { previousTokenEnc: string; previousExpiresAt: string } | null,
  at: Date,
): [string, ...string[]] {
  const current = decrypt(currentEnc);
  if (rotation && parseDbTime(rotation.previousExpiresAt).getTime() > at.getTime()) {
    // A rotation committing between the reads shows its previous token as current too.
    const previous = decrypt(rotation.previousTokenEnc);
    return previous === current ? [current] : [current, previous];
  }
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
  const overlapSeconds = options.overlapSeconds ?? defaultRotationOverlapSeconds;
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > maxRotationOverlapSeconds)
    throw ValidationError.field(
      "overlap_seconds",
      `overlap_seconds must be an integer from 0 to ${maxRotationOverlapSeconds} (7 days)`,
    );
  const token = newWebhookToken();
  return db.transaction(async (tx) => {
    const [business] = await tx
      .select({ enc: businesses.webhookTokenEnc })
      .from(businesses)
      .where(eq(businesses.id, businessId))
      .for("update");
    if (!business) throw new NotFoundError("business_not_found", "No such business");
    // FOR UPDATE: of two rotations at once, the second keeps the first's new token as `previous`.
    const now = new Date();
    const previousValidUntil = new Date(now.getTime() + overlapSeconds * 1000);
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
    await recordAudit(tx, { businessId, action: "webhook_token.rotate", target: { type: "business", id: businessId }, changes: { token: { from: "[redacted]", to: "[redacted]" }, overlap_seconds: { from: null, to: overlapSeconds } } });
    return { token, previousValidUntil };
  });
}

/**
 * The current token and the latest rotation: enough to tell which tokens signed an attempt
 * recorded before its headers were stored (migration 0011; the attempt log's fallback).
 */
export type WebhookTokenHistory = {
  current: string;
  rotation: { previous: string; previousExpiresAt: Date; rotatedAt: Date } | null;
};

export async function webhookTokenHistory(db: Db, businessId: string): Promise<WebhookTokenHistory> {
  const current = await revealWebhookToken(db, businessId);
  const [rotation] = await db
    .select()
    .from(webhookTokenRotations)
    .where(eq(webhookTokenRotations.businessId, businessId));
  return {
    current,
    rotation: rotation
      ? {
          previous: decrypt(rotation.previousTokenEnc),
          previousExpiresAt: parseDbTime(rotation.previousExpiresAt),
          rotatedAt: parseDbTime(rotation.rotatedAt),
        }
      : null,
  };
}

/**
 * The tokens that signed an attempt started at `at` (webhookSigningTokens' rule), or null when
 * that is no longer known: an attempt older than the latest rotation may have been signed by
 * tokens replaced before it, which are not kept.
 */
export function tokensSigningAt(history: WebhookTokenHistory, at: Date): [string, ...string[]] | null {
  const { current, rotation } = history;
  if (!rotation) return [current];
  if (at.getTime() <= rotation.rotatedAt.getTime()) return null;
  return rotation.previousExpiresAt.getTime() > at.getTime() ? [current, rotation.previous] : [current];
}

/** Until when the replaced token still signs, or null when no overlap is running. */
export async function previousTokenValidUntil(
  db: Db,
  businessId: string,
  at = new Date(),
): Promise<Date | null> {
  const [rotation] = await db
    .select({ expiresAt: webhookTokenRotations.previousExpiresAt })
    .from(webhookTokenRotations)
    .where(eq(webhookTokenRotations.businessId, businessId));
  if (!rotation) return null;
  const expiresAt = parseDbTime(rotation.expiresAt);
  return expiresAt.getTime() > at.getTime() ? expiresAt : null;
}
