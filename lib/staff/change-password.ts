import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { StaffInputError } from "./errors";
import { countLoginAttempt, forgiveLoginAttempt } from "./login-rate-limit";
import { checkSignInPassword, hashPassword, passwordProblem } from "./password";
import { endUserSessions } from "./staff-sessions";

/**
 * The account page's password change: the current password is checked (within the sign-in rate
 * limit), the new one set, and every other session of the user ended at once (decision 0044);
 * the session asking stays signed in. Returns how many sessions ended.
 */
export async function changePassword(
  db: Db,
  input: { userId: string; currentPassword: string; newPassword: string; keepSessionId: string | null; ip: string | null },
): Promise<{ sessionsEnded: number }> {
  const [user] = await db.select().from(users).where(eq(users.id, input.userId));
  if (!user || user.disabledAt) throw new StaffInputError("This account is disabled.");
  const problem = passwordProblem(input.newPassword);
  if (problem) throw new StaffInputError(`The new password ${problem}.`);
  const attempt = { email: user.email, ip: input.ip };
  await countLoginAttempt(db, attempt);
  if (!(await checkSignInPassword(user.passwordHash, input.currentPassword))) throw new StaffInputError("The current password is wrong. Nothing was changed.");
  await forgiveLoginAttempt(db, attempt);
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    return { sessionsEnded: await endUserSessions(tx, user.id, input.keepSessionId) };
  });
}
