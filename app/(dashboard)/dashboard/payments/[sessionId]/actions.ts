"use server";

import { revalidatePath } from "next/cache";
import { refundPaymentAs, reviewPaymentAs } from "@/lib/dashboard/payment-actions";
import { serveStaffAction } from "@/lib/dashboard/serve-staff-action";
import type { ActionResult, ActionState } from "@/lib/dashboard/staff-action";

const settle = (sessionId: string, result: ActionResult): ActionResult => {
  if (/^cs_[0-9A-Za-z]{1,64}$/.test(sessionId)) revalidatePath(`/dashboard/payments/${sessionId}`);
  return result;
};

// Refund (full by default, partial with an amount) from the payment page.
export async function refundAction(sessionId: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return settle(sessionId, await serveStaffAction(refundPaymentAs, form, { session: sessionId }));
}

// Accept or decline a payment held for review.
export async function reviewAction(sessionId: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return settle(sessionId, await serveStaffAction(reviewPaymentAs, form, { session: sessionId }));
}
