"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { staffActor, withAuditActor } from "@/lib/audit/audit-actor";
import { getDb } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { log } from "@/lib/log";
import { formatMoney } from "@/lib/money";
import { refundPayment } from "@/lib/payments/refund-payment";
import { reviewPayment } from "@/lib/payments/review-payment";
import { requireStaffFor, StaffForbiddenError, type StaffAction } from "@/lib/staff/current-staff";

/** What a payment action answers the page: the interface's error shape on failure. */
export type PaymentActionResult = { ok: true; message: string } | { ok: false; error: string; message: string } | null;

const sessionId = z.string().regex(/^cs_[0-9A-Za-z]{1,64}$/);
/** Dollars as staff type them ("12.50", "12"); empty means everything left. */
const refundForm = z.object({
  amount: z
    .string()
    .trim()
    .regex(/^(\d{1,9})(\.\d{1,2})?$/, "Enter an amount like 12.50")
    .transform((v) => Math.round(Number(v) * 100))
    .refine((cents) => cents > 0, "The amount must be more than 0")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  note: z.string().trim().max(500, "At most 500 characters").optional(),
});

async function run(action: StaffAction, id: string, work: (businessId: string, sessionId: string) => Promise<string>): Promise<PaymentActionResult> {
  const parsedId = sessionId.safeParse(id);
  if (!parsedId.success) return { ok: false, error: "payment_not_found", message: "No such payment" };
  let staff;
  try {
    staff = await requireStaffFor(action);
  } catch (error) {
    if (error instanceof StaffForbiddenError) return { ok: false, error: "forbidden", message: error.message };
    throw error; // the redirect to the sign-in page
  }
  try {
    const message = await withAuditActor(staffActor(staff!), () => work(staff.businessId, parsedId.data));
    return { ok: true, message };
  } catch (error) {
    if (error instanceof DomainError) return { ok: false, error: error.code, message: error.message };
    log.error("dashboard payment action failed", { action, sessionId: parsedId.data, error });
    return { ok: false, error: "internal_error", message: "Something went wrong; nothing was changed. Try again." };
  } finally {
    revalidatePath(`/dashboard/payments/${parsedId.data}`);
  }
}

// Refund (full by default, partial with an amount) from the payment page.
export async function refundAction(id: string, _previous: PaymentActionResult, form: FormData): Promise<PaymentActionResult> {
  const parsed = refundForm.safeParse({ amount: form.get("amount") ?? "", note: form.get("note") ?? undefined });
  if (!parsed.success) {
    return { ok: false, error: "validation_failed", message: parsed.error.issues.map((i) => i.message).join(", ") };
  }
  return run("refund", id, async (businessId, session) => {
    const refund = await refundPayment(await getDb(), businessId, session, {
      amount: parsed.data.amount,
      note: parsed.data.note || undefined,
    });
    return `Refund of ${formatMoney(refund.amount, refund.currency)} ${refund.status === "succeeded" ? "succeeded" : `is ${refund.status}`}.`;
  });
}

// Accept or decline a payment held for review.
export async function reviewAction(id: string, _previous: PaymentActionResult, form: FormData): Promise<PaymentActionResult> {
  const decision = form.get("decision");
  if (decision !== "accept" && decision !== "decline") {
    return { ok: false, error: "validation_failed", message: "Choose accept or decline" };
  }
  return run("review", id, async (businessId, session) => {
    const payment = await reviewPayment(await getDb(), businessId, session, decision);
    return decision === "accept" ? `Accepted: the payment is ${payment.status}.` : `Declined: the customer is refunded (${payment.status}).`;
  });
}
