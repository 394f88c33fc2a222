"use server";

import { revalidatePath } from "next/cache";
import { payoutOperation } from "@/lib/dashboard/payouts-actions";
import { serveStaffAction } from "@/lib/dashboard/serve-staff-action";
import type { ActionState } from "@/lib/dashboard/staff-action";

// Every payout operation of the Payouts pages: the one its form's `intent` names, through
// staffAction (signed-in staff whose role may run payouts, in the business the form was shown for).
export async function payoutsAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const operation = payoutOperation(form.get("intent"));
  if (!operation) return { ok: false, error: "validation_failed", message: "Unknown operation" };
  const result = await serveStaffAction(operation, form);
  if (result.ok) revalidatePath("/dashboard/payouts", "layout");
  return result;
}
