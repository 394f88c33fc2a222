"use server";

import { revalidatePath } from "next/cache";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { supportOperation } from "@/lib/admin/support-console";
import { serveStaffAction } from "@/lib/dashboard/serve-staff-action";
import type { ActionResult, ActionState } from "@/lib/dashboard/staff-action";
import { currentBusinessCookie, currentBusinessCookieOptions } from "@/lib/staff/current-staff";

/** Where "open as support" may land: a dashboard path, nothing else. */
const dashboardPath = /^\/dashboard(\/[A-Za-z0-9_-]+)*$/;

// Every write of the support console, through staffAction (service support only). Opening a
// business sets the business /dashboard shows and goes there.
export async function supportAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const operation = supportOperation(form.get("intent"));
  if (!operation) return { ok: false, error: "validation_failed", message: "Unknown operation" };
  const result = await serveStaffAction(operation, form);
  if (result.ok && result.data?.openBusinessId) {
    (await cookies()).set(currentBusinessCookie, result.data.openBusinessId, currentBusinessCookieOptions());
    const then = form.get("then");
    redirect(typeof then === "string" && dashboardPath.test(then) ? then : "/dashboard");
  }
  if (result.ok) revalidatePath("/admin", "layout");
  return plain(result);
}

const plain = (result: ActionResult<unknown>): ActionResult => (result.ok ? { ok: true, message: result.message } : result);
