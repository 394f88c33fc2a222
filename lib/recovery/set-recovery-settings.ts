import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { businesses, type Business } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { scheduleRecoveryNoticesOf } from "./recovery-notice-job";

/** A business's recovery e-mails (docs/recovery.md): each opt-in, off by default. */
export type RecoverySettings = {
  /** The payer hears when a renewal fails, with a link to pay the open invoice. */
  failedMail: boolean;
  /** The payer hears `aheadDays` days before a renewal of a plan of a month or longer. */
  aheadMail: boolean;
  aheadDays: number;
  /** The payer hears before the first renewal after the card's expiry month. */
  expiryMail: boolean;
};

export const recoveryAheadDaysRange = { min: 1, max: 30 } as const;

export const recoverySettingsSchema = z.object({
  failedMail: z.boolean(),
  aheadMail: z.boolean(),
  aheadDays: z
    .number({ error: "Enter a number of days" })
    .int({ error: "Enter a whole number of days" })
    .min(recoveryAheadDaysRange.min, { error: `At least ${recoveryAheadDaysRange.min} day` })
    .max(recoveryAheadDaysRange.max, { error: `At most ${recoveryAheadDaysRange.max} days` }),
  expiryMail: z.boolean(),
});

export function recoverySettingsOf(business: Business): RecoverySettings {
  return {
    failedMail: business.recoveryFailedMail,
    aheadMail: business.recoveryAheadMail,
    aheadDays: business.recoveryAheadDays,
    expiryMail: business.recoveryExpiryMail,
  };
}

const columns = {
  failedMail: "recovery_failed_mail",
  aheadMail: "recovery_ahead_mail",
  aheadDays: "recovery_ahead_days",
  expiryMail: "recovery_expiry_mail",
} as const;

/**
 * Saves a business's recovery settings (dashboard Settings). What changed is audited as
 * `business.settings_update` with the columns' names; saving the same values records nothing.
 * Invalid input throws a ValidationError and changes nothing.
 */
export async function setRecoverySettings(db: Db, businessId: string, input: RecoverySettings): Promise<Business> {
  const parsed = recoverySettingsSchema.safeParse(input);
  if (!parsed.success) {
    const fields: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fields[String(issue.path[0] ?? "settings")] ??= []).push(issue.message);
    throw new ValidationError(fields);
  }
  const next = parsed.data;
  return transactionWithJobs(db, async (tx) => {
    const [before] = await tx.select().from(businesses).where(eq(businesses.id, businessId)).for("update");
    if (!before) throw new NotFoundError("business_not_found", "No such business");
    const [business] = await tx
      .update(businesses)
      .set({
        recoveryFailedMail: next.failedMail,
        recoveryAheadMail: next.aheadMail,
        recoveryAheadDays: next.aheadDays,
        recoveryExpiryMail: next.expiryMail,
      })
      .where(eq(businesses.id, businessId))
      .returning();
    const previous = recoverySettingsOf(before);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const key of Object.keys(columns) as (keyof RecoverySettings)[])
      if (previous[key] !== next[key]) changes[columns[key]] = { from: previous[key], to: next[key] };
    // Turned on: the subscriptions not ended get their next renewal's notices.
    const noticesBefore = previous.aheadMail || previous.expiryMail;
    if (!noticesBefore && (next.aheadMail || next.expiryMail)) await scheduleRecoveryNoticesOf(tx, business!);
    if (Object.keys(changes).length > 0)
      await recordAudit(tx, { businessId, action: "business.settings_update", target: { type: "business", id: businessId }, changes });
    return business!;
  });
}
