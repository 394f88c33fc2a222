import { and, eq, gt, isNull, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { demoLogins, passwordResetTokens, users } from "@/db/schema";
import { sha256Hex } from "@/lib/crypto";
import { env } from "@/lib/env";
import { newId, randomToken } from "@/lib/ids";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { log } from "@/lib/log";
import { enqueueMail } from "@/lib/mail/enqueue-mail";
import { passwordResetMail } from "@/lib/mail/messages";
import { findUserByEmail } from "./create-user";
import { isEmail, normalizeEmail } from "./email";
import { StaffInputError } from "./errors";
import { countLoginAttempt } from "./login-rate-limit";
import { hashPassword, passwordProblem } from "./password";
import { endUserSessions } from "./staff-sessions";

/** How long a reset link works. */
export const resetTokenLifetimeMs = 60 * 60 * 1000;

/** The link is wrong, used or expired (one answer for all three). */
export class InvalidResetTokenError extends Error {
  constructor() {
    super("This reset link is invalid or has expired. Ask for a new one.");
    this.name = "InvalidResetTokenError";
  }
}

/**
 * Starts a password reset. The answer is the same whether the e-mail has a user or not; only the
 * log differs. The link goes out by e-mail (lib/mail, written with the token in one transaction).
 * Without SMTP_URL the message is kept for the mailbox page, and the link is also logged in
 * development (`npm run dev`, tests) and for the demo login, as before there was a mailer; never
 * in production (`npm start`). Limited like sign-ins (throws LoginRateLimitedError). Returns the
 * token for tests, or null.
 */
export async function requestPasswordReset(
  db: Db,
  input: { email: string; ip: string | null; linkFor: (token: string) => string; now?: Date },
): Promise<string | null> {
  const email = normalizeEmail(input.email);
  if (!isEmail(email)) return null;
  await countLoginAttempt(db, { email: `reset:${email}`, ip: `reset:${input.ip ?? "unknown"}` });
  const user = await findUserByEmail(db, email);
  if (!user || user.disabledAt) {
    log.info("password reset requested for an e-mail without an active user");
    return null;
  }
  const token = randomToken(43);
  const now = input.now ?? new Date();
  await transactionWithJobs(db, async (tx) => {
    await tx.insert(passwordResetTokens).values({
      id: newId("passwordReset"),
      userId: user.id,
      digest: sha256Hex(token),
      expiresAt: new Date(now.getTime() + resetTokenLifetimeMs).toISOString(),
    });
    await enqueueMail(tx, { businessId: null, kind: "password_reset", to: user.email, parts: passwordResetMail({ url: input.linkFor(token) }) });
  });
  if (env().SMTP_URL) return token;
  // The demo login's password is printed at every start anyway: its link may be too.
  const [demo] = await db.select({ userId: demoLogins.userId }).from(demoLogins).where(eq(demoLogins.userId, user.id));
  if (env().NODE_ENV === "production" && !demo)
    log.info("password reset link created (no SMTP_URL: on the mailbox page, not shown in production logs)", { userId: user.id });
  else log.info("password reset link (no SMTP_URL: also kept on the mailbox page)", { email: user.email, url: input.linkFor(token) });
  return token;
}

/**
 * Sets a new password with a reset token: single use (a conditional UPDATE claims it, so two
 * submissions cannot both pass), expired tokens refused, every other open token of the user spent,
 * and sessions signed in before now refused.
 */
export async function resetPassword(db: Db, input: { token: string; password: string; now?: Date }): Promise<{ userId: string }> {
  const problem = passwordProblem(input.password);
  if (problem) throw new StaffInputError(`The password ${problem}.`);
  if (!/^[0-9A-Za-z]{43}$/.test(input.token)) throw new InvalidResetTokenError();
  const passwordHash = await hashPassword(input.password);
  const now = (input.now ?? new Date()).toISOString();
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResetTokens.digest, sha256Hex(input.token)),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, now),
        ),
      )
      .returning({ id: passwordResetTokens.id, userId: passwordResetTokens.userId });
    if (!claimed) throw new InvalidResetTokenError();
    const [user] = await tx
      .update(users)
      .set({ passwordHash, sessionsValidAfter: now })
      .where(and(eq(users.id, claimed.userId), isNull(users.disabledAt)))
      .returning({ id: users.id });
    if (!user) throw new InvalidResetTokenError();
    await endUserSessions(tx, user.id);
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt), ne(passwordResetTokens.id, claimed.id)));
    return { userId: user.id };
  });
}
