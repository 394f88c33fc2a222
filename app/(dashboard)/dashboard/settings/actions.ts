"use server";

import { revalidatePath } from "next/cache";
import { formObject, type ActionResult } from "@/lib/dashboard/run-staff-action";
import { saveBrandingAs, saveFraudSettingsAs, saveGeneralSettingsAs } from "@/lib/dashboard/settings-actions";
import { staffForAction } from "@/lib/dashboard/staff-for-action";
import { getDb } from "@/lib/db";

export type SettingsActionResult = ActionResult | null;

function done(result: ActionResult): ActionResult {
  if (result.ok) revalidatePath("/dashboard", "layout"); // the business name shows in the shell too
  return result;
}

// Business name, return URL, who pays the fees (owner or admin).
export async function saveGeneralSettingsAction(_previous: SettingsActionResult, form: FormData): Promise<SettingsActionResult> {
  const found = await staffForAction("settings");
  if ("refused" in found) return found.refused;
  return done(await saveGeneralSettingsAs(await getDb(), found.staff, formObject(form)));
}

// Fraud screening thresholds and the one-time screening fee (owner or admin).
export async function saveFraudSettingsAction(_previous: SettingsActionResult, form: FormData): Promise<SettingsActionResult> {
  const found = await staffForAction("settings");
  if ("refused" in found) return found.refused;
  return done(await saveFraudSettingsAs(await getDb(), found.staff, formObject(form)));
}

// Checkout branding: accent colour and logo file (owner or admin).
export async function saveBrandingAction(_previous: SettingsActionResult, form: FormData): Promise<SettingsActionResult> {
  const found = await staffForAction("settings");
  if ("refused" in found) return found.refused;
  const logo = form.get("logo");
  return done(await saveBrandingAs(await getDb(), found.staff, { ...formObject(form), logo: logo ?? undefined }));
}
