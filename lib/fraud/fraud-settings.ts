import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { changedFields, recordAudit } from "@/lib/audit/record-audit";
import { businesses, type Business } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/http/validation";

const decision = z.enum(["allow", "review", "decline"]);

/**
 * A business's fraud screening thresholds (businesses.fraud_settings; unset keys take the
 * defaults below, documented in docs/payments.md). Counts are payment attempts of this business
 * within the window, the current one included; a count above its limit holds the payment for
 * review, above twice the limit declines it.
 */
export const fraudSettingsSchema = z
  .object({
    /** Off: every payment is allowed, whatever the rules and the provider's risk signal say. */
    enabled: z.boolean(),
    /** Amount (gross cents) from which a payment is held for review; null: no limit. */
    reviewAmountCents: z.number().int().min(1).nullable(),
    /** Amount from which a payment is declined before any charge; null: no limit. */
    declineAmountCents: z.number().int().min(1).nullable(),
    velocityWindowSeconds: z
      .number()
      .int()
      .min(60)
      .max(30 * 86_400),
    maxAttemptsPerCard: z.number().int().min(1).max(10_000),
    maxAttemptsPerIp: z.number().int().min(1).max(10_000),
    maxAttemptsPerEmail: z.number().int().min(1).max(10_000),
    /** The IP's country differs from the card's. */
    countryMismatch: decision,
    /** The provider's risk signal (Stripe Radar's risk_level): elevated, highest. */
    elevatedRisk: decision,
    highestRisk: decision,
  })
  .strict();

export type FraudSettings = z.infer<typeof fraudSettingsSchema>;

export const defaultFraudSettings: FraudSettings = {
  enabled: true,
  reviewAmountCents: 500_000,
  declineAmountCents: null,
  velocityWindowSeconds: 3600,
  maxAttemptsPerCard: 5,
  maxAttemptsPerIp: 20,
  maxAttemptsPerEmail: 10,
  countryMismatch: "allow",
  elevatedRisk: "review",
  highestRisk: "decline",
};

/** The business's settings over the defaults (a stored value that no longer validates is ignored). */
export function fraudSettingsOf(business: Pick<Business, "fraudSettings">): FraudSettings {
  const merged = { ...defaultFraudSettings, ...(business.fraudSettings ?? {}) };
  const parsed = fraudSettingsSchema.safeParse(merged);
  return parsed.success ? parsed.data : defaultFraudSettings;
}

/**
 * Changes some thresholds (and the one-time screening fee, in cents) of a business. Unknown keys
 * and invalid values are a 400 with the field body.
 */
export async function updateFraudSettings(
  db: Db,
  businessId: string,
  changes: Partial<FraudSettings> & { screeningFeeCents?: number },
): Promise<{ settings: FraudSettings; screeningFeeCents: number }> {
  const { screeningFeeCents, ...rest } = changes;
  const partial = parseOrThrow(fraudSettingsSchema.partial(), rest);
  if (screeningFeeCents !== undefined)
    parseOrThrow(z.object({ screeningFeeCents: z.number().int().min(0).max(100_000) }), {
      screeningFeeCents,
    });
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(businesses).where(eq(businesses.id, businessId)).for("update");
    if (!row) throw new NotFoundError("business_not_found", "No such business");
    const stored = { ...(row.fraudSettings ?? {}), ...partial };
    const [updated] = await tx
      .update(businesses)
      .set({
        fraudSettings: stored,
        ...(screeningFeeCents === undefined ? {} : { fraudScreeningFeeCents: screeningFeeCents }),
      })
      .where(eq(businesses.id, businessId))
      .returning();
    await recordAudit(tx, { businessId, action: "business.fraud_thresholds_update", target: { type: "business", id: businessId }, changes: changedFields({ ...fraudSettingsOf(row), screeningFeeCents: row.fraudScreeningFeeCents }, { ...fraudSettingsOf(updated!), screeningFeeCents: updated!.fraudScreeningFeeCents }) });
    return { settings: fraudSettingsOf(updated!), screeningFeeCents: updated!.fraudScreeningFeeCents };
  });
}
