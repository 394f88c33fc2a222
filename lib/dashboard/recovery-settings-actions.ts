import { z } from "zod";
import { ValidationError } from "@/lib/errors";
import { recoveryAheadDaysRange, setRecoverySettings } from "@/lib/recovery/set-recovery-settings";
import { businessIdField, staffAction } from "./staff-action";

const { min, max } = recoveryAheadDaysRange;

// Checkboxes are sent ("on") when ticked, absent otherwise.
const checkbox = z.literal("on", { error: "Tick the box or leave it empty" }).optional();

const recoverySchema = z.object({
  business: businessIdField,
  failed_mail: checkbox,
  ahead_mail: checkbox,
  ahead_days: z
    .string({ error: "The number of days is required" })
    .trim()
    .regex(/^\d{1,4}$/, { error: "Enter the number of days as a whole number" })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: `The number of days must be from ${min} to ${max}` }),
  expiry_mail: checkbox,
});

const formNames: Record<string, string> = { failedMail: "failed_mail", aheadMail: "ahead_mail", aheadDays: "ahead_days", expiryMail: "expiry_mail" };

/** Saves the recovery e-mails a business sends its subscribers (each on or off, and the days ahead). */
export const saveRecoverySettingsAs = staffAction({
  permission: "settings",
  schema: recoverySchema,
  run: async ({ db, businessId, input: form }) => {
    try {
      await setRecoverySettings(db, businessId, {
        failedMail: form.failed_mail === "on",
        aheadMail: form.ahead_mail === "on",
        aheadDays: form.ahead_days,
        expiryMail: form.expiry_mail === "on",
      });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const fields: Record<string, string[]> = {};
      for (const [key, messages] of Object.entries(error.fields)) (fields[formNames[key] ?? key] ??= []).push(...messages);
      throw new ValidationError(fields);
    }
    return { message: "Recovery e-mails saved." };
  },
});
