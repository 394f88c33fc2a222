import { z } from "zod";
import type { Db } from "@/db/client";
import { changePassword } from "@/lib/staff/change-password";
import type { Staff } from "@/lib/staff/current-staff";
import { LoginRateLimitedError, StaffInputError } from "@/lib/staff/errors";
import { requestEmailChange } from "@/lib/staff/request-email-change";
import { endUserSessions } from "@/lib/staff/staff-sessions";
import { invalid, type ActionResult } from "./staff-action";

// The account page's actions: about the signed-in user, not a business (no business field).

const passwordSchema = z
  .object({
    current: z.string({ error: "Enter your current password" }).min(1, { error: "Enter your current password" }),
    password: z.string({ error: "Enter the new password" }),
    confirm: z.string({ error: "Enter the new password again" }),
  })
  .refine((v) => v.password === v.confirm, { error: "The two new passwords differ", path: ["confirm"] });

/** Changes the password; the other sessions end, this one stays (decision 0044). */
export async function changePasswordAs(db: Db, staff: Staff, sessionId: string | null, input: unknown, ip: string | null): Promise<ActionResult> {
  const parsed = passwordSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error) as ActionResult;
  try {
    const { sessionsEnded } = await changePassword(db, { userId: staff.userId, currentPassword: parsed.data.current, newPassword: parsed.data.password, keepSessionId: sessionId, ip });
    return { ok: true, message: `Password changed. ${sessionsEnded} other session(s) ended; this one stays signed in.` };
  } catch (error) {
    if (error instanceof StaffInputError) return { ok: false, error: "invalid_password", message: error.message };
    if (error instanceof LoginRateLimitedError) return { ok: false, error: "rate_limited", message: "Too many failed attempts. Try again later." };
    throw error;
  }
}

const emailChangeSchema = z.object({
  email: z.string({ error: "Enter the new e-mail" }).trim().min(1, { error: "Enter the new e-mail" }).max(254, { error: "At most 254 characters" }),
  current: z.string({ error: "Enter your current password" }).min(1, { error: "Enter your current password" }),
  code: z.string().max(40, { error: "At most 40 characters" }).optional(),
});

/** Asks to change the sign-in e-mail: the link goes to the new address, a notice to the old (decision 0052). */
export async function requestEmailChangeAs(db: Db, staff: Staff, input: unknown, ip: string | null): Promise<ActionResult> {
  const parsed = emailChangeSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error) as ActionResult;
  try {
    const { email, current, code } = parsed.data;
    await requestEmailChange(db, { userId: staff.userId, newEmail: email, currentPassword: current, code, ip });
    return {
      ok: true,
      message: `We sent a confirmation link to ${email.trim().toLowerCase()}. Your sign-in e-mail changes when you open it (within 24 hours); until then it stays ${staff.email}.`,
    };
  } catch (error) {
    if (error instanceof StaffInputError) return { ok: false, error: "invalid_email_change", message: error.message };
    if (error instanceof LoginRateLimitedError) return { ok: false, error: "rate_limited", message: "Too many failed attempts. Try again later." };
    throw error;
  }
}

/** Ends every session of the user, this one included. */
export async function signOutEverywhereAs(db: Db, staff: Staff): Promise<number> {
  return endUserSessions(db, staff.userId);
}
