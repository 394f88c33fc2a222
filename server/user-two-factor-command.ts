import type { Db } from "@/db/client";
import { findUserByEmail } from "@/lib/staff/create-user";
import { normalizeEmail } from "@/lib/staff/email";
import { StaffInputError } from "@/lib/staff/errors";
import { resetTwoFactor } from "@/lib/staff/manage-two-factor";

/** `npx kassa user reset-2fa --email E`: removes the user's two-factor sign-in and ends their sessions (decision 0048). */
export async function userResetTwoFactorCommand(db: Db, input: { email: string }) {
  const user = await findUserByEmail(db, normalizeEmail(input.email));
  if (!user) throw new StaffInputError(`no user ${input.email}`);
  const { sessionsEnded, wasOn } = await resetTwoFactor(db, { userId: user.id, businessId: null });
  return {
    json: { id: user.id, email: user.email, two_factor_was_on: wasOn, sessions_ended: sessionsEnded },
    text: `${user.email}: two-factor sign-in ${wasOn ? "is reset" : "was not on"}; ${sessionsEnded} open session(s) ended. They sign in with their password${wasOn ? " and set two-factor up again where it is required" : ""}.`,
  };
}
