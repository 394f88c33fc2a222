"use server";

import { revalidatePath } from "next/cache";
import { serveStaffAction } from "@/lib/dashboard/serve-staff-action";
import type { ActionResult } from "@/lib/dashboard/staff-action";
import { cancelSubscriptionAs, resumeSubscriptionAs } from "@/lib/dashboard/subscription-actions";

/** What the subscription page's forms get back (the message to show, or `{error, message}`). */
export type SubscriptionActionResult = ActionResult | null;

const settle = (result: ActionResult<unknown>, form: FormData): ActionResult => {
  const subscription = form.get("subscription");
  if (typeof subscription === "string" && /^psub_[0-9A-Za-z]{1,64}$/.test(subscription))
    revalidatePath(`/dashboard/subscriptions/${subscription}`);
  revalidatePath("/dashboard/subscriptions");
  return result.ok ? { ok: true, message: result.message } : result;
};

// Cancel at period end or now, recorded as manager (admin for service support).
export async function cancelSubscriptionAction(_previous: SubscriptionActionResult, form: FormData): Promise<SubscriptionActionResult> {
  return settle(await serveStaffAction(cancelSubscriptionAs, form), form);
}

// Withdraw a scheduled cancellation (the API's rules: not the customer's, support's or the system's).
export async function resumeSubscriptionAction(_previous: SubscriptionActionResult, form: FormData): Promise<SubscriptionActionResult> {
  return settle(await serveStaffAction(resumeSubscriptionAs, form), form);
}
