import type { Db } from "@/db/client";
import { findUserByEmail } from "./create-user";
import { isEmail, normalizeEmail } from "./email";
import { loadStaff } from "./load-staff";
import { countLoginAttempt, forgiveLoginAttempt } from "./login-rate-limit";
import { checkSignInPassword } from "./password";

export type SignInOutcome = { ok: true; userId: string; email: string } | { ok: false; reason: "invalid" | "no_business" };

/**
 * Checks an e-mail and password for the sign-in form, within the login rate limit (throws
 * LoginRateLimitedError). Unknown e-mail, disabled user and wrong password answer the same
 * `invalid`, after the same work (one password verification, checkSignInPassword).
 */
export async function authenticate(db: Db, input: { email: string; password: string; ip: string | null }): Promise<SignInOutcome> {
  const email = normalizeEmail(input.email);
  if (!isEmail(email) || input.password === "") return { ok: false, reason: "invalid" };
  const attempt = { email, ip: input.ip };
  await countLoginAttempt(db, attempt);
  const user = await findUserByEmail(db, email);
  const valid = await checkSignInPassword(user && !user.disabledAt ? user.passwordHash : null, input.password);
  if (!user || !valid) return { ok: false, reason: "invalid" };
  await forgiveLoginAttempt(db, attempt);
  // Someone with no business left (and not support) has nothing to open: say so rather than loop.
  if (!(await loadStaff(db, { userId: user.id }))) return { ok: false, reason: "no_business" };
  return { ok: true, userId: user.id, email: user.email };
}
