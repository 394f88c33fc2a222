"use server";

import { revalidatePath } from "next/cache";
import { saveBrandingAs, saveFraudSettingsAs, saveGeneralSettingsAs, saveReceiptSettingsAs } from "@/lib/dashboard/settings-actions";
import { saveRecoverySettingsAs } from "@/lib/dashboard/recovery-settings-actions";
import { serveStaffAction } from "@/lib/dashboard/serve-staff-action";
import type { ActionResult } from "@/lib/dashboard/staff-action";

export type SettingsActionResult = ActionResult | null;

function done(result: ActionResult): ActionResult {
  if (result.ok) revalidatePath("/dashboard", "layout"); // the business name shows in the shell too
  return result;
}

// Business name, return URL, who pays the fees (owner or admin).
export async function saveGeneralSettingsAction(_previous: SettingsActionResult, form: FormData): Promise<SettingsActionResult> {
  return done(await serveStaffAction(saveGeneralSettingsAs, form));
}

// Fraud screening thresholds and the one-time screening fee (owner or admin).
export async function saveFraudSettingsAction(_previous: SettingsActionResult, form: FormData): Promise<SettingsActionResult> {
  return done(await serveStaffAction(saveFraudSettingsAs, form));
}

// Checkout branding: accent colour and logo file (owner or admin).
export async function saveBrandingAction(_previous: SettingsActionResult, form: FormData): Promise<SettingsActionResult> {
  return done(await serveStaffAction(saveBrandingAs, form));
}

// Receipts e-mailed to payers: on or off (owner or admin).
export async function saveReceiptSettingsAction(_previous: SettingsActionResult, form: FormData): Promise<SettingsActionResult> {
  return done(await serveStaffAction(saveReceiptSettingsAs, form));
}

// Recovery e-mails to subscribers: failed renewal, renewal ahead, card expiring (owner or admin).
export async function saveRecoverySettingsAction(_previous: SettingsActionResult, form: FormData): Promise<SettingsActionResult> {
  return done(await serveStaffAction(saveRecoverySettingsAs, form));
}
