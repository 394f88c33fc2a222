import { requireStaffFor, StaffForbiddenError, type Staff, type StaffAction } from "@/lib/staff/current-staff";
import type { ActionResult } from "./run-staff-action";

/**
 * For a Server Action: the signed-in staff member if their role may do `action` in the business
 * the dashboard shows, else the forbidden answer for the form (signed out: the sign-in redirect).
 */
export async function staffForAction(action: StaffAction): Promise<{ staff: Staff } | { refused: ActionResult<never> }> {
  try {
    return { staff: await requireStaffFor(action) };
  } catch (error) {
    if (error instanceof StaffForbiddenError) return { refused: { ok: false, error: "forbidden", message: error.message } };
    throw error;
  }
}
