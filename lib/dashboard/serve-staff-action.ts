import { getDb } from "@/lib/db";
import { requireAdmin, requireStaffFor, StaffForbiddenError } from "@/lib/staff/current-staff";
import { forbidden, formObject, type ActionResult, type StaffActionRunner } from "./staff-action";

/**
 * A Server Action's whole body: the signed-in staff member (signed out: the sign-in redirect;
 * a role that may not: the forbidden answer), then the write through its staffAction wrapper with
 * the form's fields. `extra` adds what is not a text field of the form (e.g. a bound id).
 */
export async function serveStaffAction<T>(
  runner: StaffActionRunner<T>,
  form: FormData,
  extra: Record<string, unknown> = {},
): Promise<ActionResult<T>> {
  let staff;
  try {
    staff = runner.permission === "support" ? await requireAdmin() : await requireStaffFor(runner.permission);
  } catch (error) {
    if (error instanceof StaffForbiddenError) return forbidden(error.message);
    throw error; // the redirect to the sign-in page
  }
  return runner(await getDb(), staff, { ...formObject(form), ...extra });
}
