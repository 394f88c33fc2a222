import { z } from "zod";
import { staffActor, withAuditActor } from "@/lib/audit/audit-actor";
import type { Staff, StaffAction } from "@/lib/staff/current-staff";
import { failure, invalid, refuseUnlessAllowed } from "./staff-action";

/**
 * What a dashboard action answers its form: a message (and what it made, e.g. a key shown once),
 * or the interface's error shape `{error, message}` (with each field's messages for bad input).
 */
export type ActionResult<T = undefined> =
  | { ok: true; message: string; data?: T }
  | { ok: false; error: string; message: string; fields?: Record<string, string[]> };

/** The business id a dashboard form carries (the business the page was showing). */
export const businessIdField = z
  .string({ error: "business is required" })
  .regex(/^biz_[0-9A-Za-z]{1,64}$/, { error: "business is not a business id" });

/**
 * Parses `input`, then runs `work` for `staff` only if the role may do `action` in the business
 * the form names and that is still the business the dashboard shows (refuseUnlessAllowed). Domain
 * failures become their `{error, message}`; anything else is logged and answered without details.
 *
 * Each action is a `(db, staff, input)` logic function built on this, tested with any Staff and no
 * request; the Server Action around it only finds the signed-in staff (requireStaffFor).
 */
export async function runStaffAction<S extends z.ZodType<{ business: string }>, T>(
  staff: Staff,
  action: StaffAction,
  schema: S,
  input: unknown,
  work: (parsed: z.infer<S>, businessId: string) => Promise<{ message: string; data?: T }>,
): Promise<ActionResult<T>> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error) as ActionResult<T>;
  const refused = refuseUnlessAllowed(staff, action, parsed.data.business);
  if (refused) return refused as ActionResult<T>;
  try {
    return { ok: true, ...(await withAuditActor(staffActor(staff), () => work(parsed.data, parsed.data.business))) };
  } catch (error) {
    return failure(error, { action, businessId: parsed.data.business }) as ActionResult<T>;
  }
}

/** A FormData as a plain object (the first value of each name), for an action's schema. */
export function formObject(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string" && !(key in out)) out[key] = value;
  return out;
}
