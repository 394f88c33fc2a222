"use server";

import { revalidatePath } from "next/cache";
import { disputeOperations } from "@/lib/dashboard/dispute-actions";
import { serveStaffAction } from "@/lib/dashboard/serve-staff-action";
import type { ActionState } from "@/lib/dashboard/staff-action";

const settle = (result: Awaited<ReturnType<typeof serveStaffAction>>, form: FormData): ActionState => {
  const dispute = form.get("dispute");
  if (typeof dispute === "string" && /^dsp_[0-9A-Za-z]{1,64}$/.test(dispute)) revalidatePath(`/dashboard/disputes/${dispute}`);
  revalidatePath("/dashboard/disputes");
  return result.ok ? { ok: true, message: result.message } : result;
};

// Save or submit evidence (text fields and files), through staffAction with the disputes API's services.
export async function disputeEvidenceAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  return settle(await serveStaffAction(disputeOperations.submit_evidence, form), form);
}

// Accept the dispute: closed as lost at Stripe.
export async function acceptDisputeAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  return settle(await serveStaffAction(disputeOperations.accept, form), form);
}
