"use server";

import { revalidatePath } from "next/cache";
import { formObject, type ActionResult } from "@/lib/dashboard/run-staff-action";
import { connectStripeAs, disconnectStripeAs, type StripeSetupResult } from "@/lib/dashboard/stripe-connection-actions";
import { staffForAction } from "@/lib/dashboard/staff-for-action";
import { getDb } from "@/lib/db";

export type StripeActionResult = ActionResult<StripeSetupResult> | null;

function done<T>(result: ActionResult<T>): ActionResult<T> {
  if (result.ok) revalidatePath("/dashboard", "layout"); // the overview's "connect Stripe" notice too
  return result;
}

// Connect or replace the business's Stripe key (owners only).
export async function connectStripeAction(_previous: StripeActionResult, form: FormData): Promise<StripeActionResult> {
  const found = await staffForAction("stripe");
  if ("refused" in found) return found.refused;
  return done(await connectStripeAs(await getDb(), found.staff, formObject(form)));
}

// Forget the business's Stripe keys (owners only, confirmation ticked).
export async function disconnectStripeAction(_previous: StripeActionResult, form: FormData): Promise<StripeActionResult> {
  const found = await staffForAction("stripe");
  if ("refused" in found) return found.refused;
  return done(await disconnectStripeAs(await getDb(), found.staff, formObject(form)));
}
