"use server";

import { revalidatePath } from "next/cache";
import { serveStaffAction } from "@/lib/dashboard/serve-staff-action";
import type { ActionState } from "@/lib/dashboard/staff-action";
import { connectStripeAs, disconnectStripeAs, type StripeSetupResult } from "@/lib/dashboard/stripe-connection-actions";

export type StripeActionResult = ActionState<StripeSetupResult>;

// Connect or replace the business's Stripe key (owners only).
export async function connectStripeAction(_previous: StripeActionResult, form: FormData): Promise<StripeActionResult> {
  const result = await serveStaffAction(connectStripeAs, form);
  if (result.ok) revalidatePath("/dashboard", "layout"); // the overview's "connect Stripe" notice too
  return result;
}

// Forget the business's Stripe keys (owners only, confirmation ticked).
export async function disconnectStripeAction(_previous: StripeActionResult, form: FormData): Promise<StripeActionResult> {
  const result = await serveStaffAction(disconnectStripeAs, form);
  if (result.ok) revalidatePath("/dashboard", "layout");
  return result;
}
