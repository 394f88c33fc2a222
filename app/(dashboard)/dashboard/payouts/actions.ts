"use server";

import { revalidatePath } from "next/cache";
import { getDb } from "@/lib/db";
import { runPayoutCommand } from "@/lib/dashboard/payouts-actions";
import { forbidden, type StaffActionResult } from "@/lib/dashboard/staff-action";
import { requireStaffFor, StaffForbiddenError } from "@/lib/staff/current-staff";

/** A form's text fields (files are not ours to take). */
function fieldsOf(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string") fields[name] = value;
  return fields;
}

// Every payout operation of the Payouts pages: signed-in staff whose role may run payouts
// (requireStaffFor), then runPayoutCommand re-checks the form's business and validates.
export async function payoutsAction(_previous: StaffActionResult, form: FormData): Promise<StaffActionResult> {
  let staff;
  try {
    staff = await requireStaffFor("payouts");
  } catch (error) {
    if (error instanceof StaffForbiddenError) return forbidden(error.message);
    throw error; // the redirect to the sign-in page
  }
  const result = await runPayoutCommand(await getDb(), staff, fieldsOf(form));
  if (result?.ok) revalidatePath("/dashboard/payouts", "layout");
  return result;
}
