"use server";

import { revalidatePath } from "next/cache";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { runSupportCommand } from "@/lib/admin/support-console";
import { forbidden, type StaffActionResult } from "@/lib/dashboard/staff-action";
import { getDb } from "@/lib/db";
import { currentBusinessCookie, currentBusinessCookieOptions, requireAdmin, StaffForbiddenError } from "@/lib/staff/current-staff";

/** A form's text fields. */
function fieldsOf(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string") fields[name] = value;
  return fields;
}

/** Where "open as support" may land: a dashboard path, nothing else. */
const dashboardPath = /^\/dashboard(\/[A-Za-z0-9_-]+)*$/;

// Every write of the support console: signed-in service support only (requireAdmin), then
// runSupportCommand checks again, validates and runs it. Opening a business sets the business
// /dashboard shows and goes there.
export async function supportAction(_previous: StaffActionResult, form: FormData): Promise<StaffActionResult> {
  let staff;
  try {
    staff = await requireAdmin();
  } catch (error) {
    if (error instanceof StaffForbiddenError) return forbidden(error.message);
    throw error; // the redirect to the sign-in page
  }
  const fields = fieldsOf(form);
  const { openBusinessId, ...result } = await runSupportCommand(await getDb(), staff, fields);
  if (result.ok && openBusinessId) {
    (await cookies()).set(currentBusinessCookie, openBusinessId, currentBusinessCookieOptions());
    redirect(fields.then && dashboardPath.test(fields.then) ? fields.then : "/dashboard");
  }
  if (result.ok) revalidatePath("/admin", "layout");
  return result;
}
