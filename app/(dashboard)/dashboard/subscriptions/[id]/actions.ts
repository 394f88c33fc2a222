"use server";

import { revalidatePath } from "next/cache";
import type { ActionResult } from "@/lib/dashboard/run-staff-action";
import { formObject } from "@/lib/dashboard/run-staff-action";
import { staffForAction } from "@/lib/dashboard/staff-for-action";
import { cancelSubscriptionAs, resumeSubscriptionAs } from "@/lib/dashboard/subscription-actions";
import { getDb } from "@/lib/db";

/** What the subscription page's forms get back (the message to show, or `{error, message}`). */
export type SubscriptionActionResult = ActionResult | null;

const settle = (result: ActionResult<unknown>, form: Record<string, string>): ActionResult => {
  if (form.subscription) revalidatePath(`/dashboard/subscriptions/${form.subscription}`);
  revalidatePath("/dashboard/subscriptions");
  return result.ok ? { ok: true, message: result.message } : result;
};

// Cancel at period end or now, recorded as manager (admin for service support).
export async function cancelSubscriptionAction(_previous: SubscriptionActionResult, form: FormData): Promise<SubscriptionActionResult> {
  const found = await staffForAction("subscriptions");
  if ("refused" in found) return found.refused;
  const input = formObject(form);
  return settle(await cancelSubscriptionAs(await getDb(), found.staff, input), input);
}

// Withdraw a scheduled cancellation (the API's rules: not the customer's, support's or the system's).
export async function resumeSubscriptionAction(_previous: SubscriptionActionResult, form: FormData): Promise<SubscriptionActionResult> {
  const found = await staffForAction("subscriptions");
  if ("refused" in found) return found.refused;
  const input = formObject(form);
  return settle(await resumeSubscriptionAs(await getDb(), found.staff, input), input);
}
