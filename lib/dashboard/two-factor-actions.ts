import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { memberships } from "@/db/schema";
import { staffActor, withAuditActor } from "@/lib/audit/audit-actor";
import type { Staff } from "@/lib/staff/current-staff";
import { LoginRateLimitedError, StaffInputError } from "@/lib/staff/errors";
import {
  confirmTwoFactor,
  disableTwoFactor,
  enrollTwoFactor,
  regenerateRecoveryCodes,
  resetTwoFactor,
  setBusinessRequiresTwoFactor,
} from "@/lib/staff/manage-two-factor";
import { forbidden, invalid, staffAction, type ActionResult, type StaffActionRunner } from "./staff-action";

// Two-factor sign-in in the dashboard (decision 0048): the account page's own set-up (about the
// signed-in user, no business field), an owner's reset of a member, and the business setting.

const code = z.string({ error: "Enter a code" }).trim().min(1, { error: "Enter a code" }).max(40, { error: "That is not a code" });
const codeSchema = z.object({ code });
const disableSchema = z.object({ password: z.string({ error: "Enter your password" }).min(1, { error: "Enter your password" }), code });

/** A refused code or password, or the rate limit, as the form's answer; anything else is thrown. */
function refused(error: unknown): ActionResult<never> {
  if (error instanceof StaffInputError) return { ok: false, error: "invalid_code", message: error.message };
  if (error instanceof LoginRateLimitedError) return { ok: false, error: "rate_limited", message: "Too many failed attempts. Try again later." };
  throw error;
}

export type TwoFactorEnrollment = { secret: string; uri: string; qrSvg: string };

/** Starts a set-up: the secret and its QR code, to scan and confirm with a code. */
export async function startTwoFactorAs(db: Db, staff: Staff): Promise<ActionResult<TwoFactorEnrollment>> {
  try {
    const data = await enrollTwoFactor(db, { userId: staff.userId });
    return { ok: true, message: "Scan the QR code with your authenticator app, then enter the code it shows.", data };
  } catch (error) {
    return refused(error);
  }
}

/** Confirms the set-up with a code: two-factor is on; the recovery codes are returned (shown once). */
export async function confirmTwoFactorAs(db: Db, staff: Staff, input: unknown, ip: string | null): Promise<ActionResult<{ recoveryCodes: string[] }>> {
  const parsed = codeSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  try {
    const data = await withAuditActor(staffActor(staff), () => confirmTwoFactor(db, { userId: staff.userId, code: parsed.data.code, ip }));
    return { ok: true, message: "Two-factor sign-in is on. Keep these recovery codes somewhere safe: each works once, and they are shown only now.", data };
  } catch (error) {
    return refused(error);
  }
}

/** New recovery codes (the old ones stop working), after a current code. */
export async function regenerateRecoveryCodesAs(db: Db, staff: Staff, input: unknown, ip: string | null): Promise<ActionResult<{ recoveryCodes: string[] }>> {
  const parsed = codeSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  try {
    const data = await regenerateRecoveryCodes(db, { userId: staff.userId, code: parsed.data.code, ip });
    return { ok: true, message: "New recovery codes; the earlier ones no longer work. They are shown only now.", data };
  } catch (error) {
    return refused(error);
  }
}

/** Turns two-factor off with the password and a code. */
export async function disableTwoFactorAs(db: Db, staff: Staff, input: unknown, ip: string | null): Promise<ActionResult> {
  const parsed = disableSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  try {
    await withAuditActor(staffActor(staff), () => disableTwoFactor(db, { userId: staff.userId, password: parsed.data.password, code: parsed.data.code, ip }));
    return { ok: true, message: "Two-factor sign-in is off." };
  } catch (error) {
    return refused(error);
  }
}

const memberSchema = z.object({ user: z.string({ error: "member is required" }).regex(/^usr_[0-9A-Za-z_]{1,64}$/, { error: "Unknown member" }) });

/** An owner (or support) resets a member's two-factor sign-in: removed, and their sessions end at once. */
export const resetMemberTwoFactorAs = staffAction({
  permission: "team",
  schema: memberSchema,
  run: async ({ db, staff, businessId, input }) => {
    const [member] = await db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.userId, input.user), eq(memberships.businessId, businessId)));
    if (!member) throw new StaffInputError("Unknown member");
    if (member.userId === staff.userId) throw new StaffInputError("Turn your own two-factor sign-in off from your account page.");
    const { sessionsEnded, wasOn } = await resetTwoFactor(db, { userId: member.userId, businessId });
    return {
      message: `${wasOn ? "Two-factor sign-in is reset" : "Two-factor sign-in was not on; nothing to reset"}; ${sessionsEnded} session(s) of the member ended.`,
    };
  },
});

const requireSchema = z.object({ required: z.enum(["on", "off"], { error: "Choose on or off" }) });

const setRequirement = staffAction({
  permission: "settings",
  schema: requireSchema,
  run: async ({ db, businessId, input }) => {
    await setBusinessRequiresTwoFactor(db, { businessId, required: input.required === "on" });
    return {
      message:
        input.required === "on"
          ? "Two-factor sign-in is now required of every member: those without it set it up before anything else."
          : "Two-factor sign-in is no longer required of every member.",
    };
  },
});

/** The business setting "require two-factor for all staff": owners only (not managers, not support). */
export const requireTwoFactorForBusinessAs: StaffActionRunner = Object.assign(
  async (db: Db, staff: Staff, input: unknown) => (staff.role === "owner" ? setRequirement(db, staff, input) : forbidden("Only an owner may change this")),
  { permission: "settings" as const },
);
