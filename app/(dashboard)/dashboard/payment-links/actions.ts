"use server";

import { revalidatePath } from "next/cache";
import { activatePaymentLinkAs, createPaymentLinkAs, deactivatePaymentLinkAs } from "@/lib/dashboard/payment-link-actions";
import { serveStaffAction } from "@/lib/dashboard/serve-staff-action";
import type { ActionResult } from "@/lib/dashboard/staff-action";

export type LinkActionResult = ActionResult<{ id: string; url: string }> | null;

function answer(result: Awaited<ReturnType<typeof createPaymentLinkAs>>): LinkActionResult {
  revalidatePath("/dashboard/payment-links", "layout");
  if (!result.ok) return result;
  return { ok: true, message: result.message, data: result.data ? { id: result.data.id, url: result.data.url } : undefined };
}

// Create a payment link (owner, manager or support).
export async function createPaymentLinkAction(_previous: LinkActionResult, form: FormData): Promise<LinkActionResult> {
  return answer(await serveStaffAction(createPaymentLinkAs, form));
}

// Deactivate a link.
export async function deactivatePaymentLinkAction(_previous: LinkActionResult, form: FormData): Promise<LinkActionResult> {
  return answer(await serveStaffAction(deactivatePaymentLinkAs, form));
}

// Reactivate a link.
export async function activatePaymentLinkAction(_previous: LinkActionResult, form: FormData): Promise<LinkActionResult> {
  return answer(await serveStaffAction(activatePaymentLinkAs, form));
}
