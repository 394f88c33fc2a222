import { and, eq, gt, isNull, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { demoLogins, passwordResetTokens, users } from "@/db/schema";
import { sha256Hex } from "@/lib/crypto";
import { env } from "@/lib/env";
import { idPrefixes, randomToken } from "@/lib/ids";
import { enqueueJob, statementWithJobs, transactionWithJobs } from "@/lib/jobs/enqueue-job";
import type { JobHandler } from "@/lib/jobs/job-outcome";
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

/** The job's note when the e-mail has no active user (the request's answer was the same). */
export const noActiveUser = "no active user";

/**
 * Starts a password reset. Before answering it does the same work whatever the e-mail: the rate
 * limit (throws LoginRateLimitedError, as sign-ins) and one `start_password_reset` job, so neither
 * the answer nor its timing says whether the e-mail has a user (issue 41). The job finds the user
 * and writes the token and its e-mail (startPasswordResetJob). `pageUrl` is the reset page; the
 * link is `{pageUrl}?token=…`. Returns the job's id (for tests; the page shows one sentence).
 */
export async function requestPasswordReset(
  db: Db,
  input: { email: string; ip: string | null; pageUrl: string; now?: Date },
): Promise<{ jobId: string }> {
  const email = normalizeEmail(input.email);
  if (!isEmail(email)) throw new StaffInputError("Enter an e-mail address.");
  await countLoginAttempt(db, { email: `reset:${email}`, ip: `reset:${input.ip ?? "unknown"}` });
  const requestedAt = (input.now ?? new Date()).toISOString();
  const job = await statementWithJobs(db, (db) =>
    enqueueJob(db, { kind: "start_password_reset", businessId: null, payload: { email, pageUrl: input.pageUrl, requestedAt } }),
  );
  return { jobId: job!.id };
}

/**
 * The start_password_reset job: for an active user, a token (valid an hour from the request) and
 * the e-mail with its link, in one transaction. Idempotent: the token's id is the job's, so a
 * second run (a lease that ran out) writes nothing. Without SMTP_URL the message is kept for the
 * mailbox page, and the link is also logged in development (`npm run dev`, tests) and for the
 * demo login, as before there was a mailer; never in production (`npm start`).
 */
export const startPasswordResetJob: JobHandler = async (db, job) => {
  const { email, pageUrl, requestedAt } = job.payload as { email: string; pageUrl: string; requestedAt: string };
  const user = await findUserByEmail(db, email);
  if (!user || user.disabledAt) {
    log.info("password reset requested for an e-mail without an active user");
    return { status: "done", note: noActiveUser };
  }
  const token = randomToken(43);
  const url = `${pageUrl}?token=${encodeURIComponent(token)}`;
  const written = await transactionWithJobs(db, async (tx) => {
    const [row] = await tx
      .insert(passwordResetTokens)
      .values({
        id: `${idPrefixes.passwordReset}_${job.id.slice(job.id.indexOf("_") + 1)}`,
        userId: user.id,
        digest: sha256Hex(token),
        expiresAt: new Date(Date.parse(requestedAt) + resetTokenLifetimeMs).toISOString(),
      })
      .onConflictDoNothing({ target: passwordResetTokens.id })
      .returning({ id: passwordResetTokens.id });
    if (row) await enqueueMail(tx, { businessId: null, kind: "password_reset", to: user.email, parts: passwordResetMail({ url }) });
    return row !== undefined;
  });
  if (!written) return { status: "done", note: "already sent" };
  await logResetLink(db, user, url);
  return { status: "done" };
};

async function logResetLink(db: Db, user: { id: string; email: string }, url: string): Promise<void> {
  if (env().SMTP_URL) return;
  // The demo login's password is printed at every start anyway: its link may be too.
  const [demo] = await db.select({ userId: demoLogins.userId }).from(demoLogins).where(eq(demoLogins.userId, user.id));
  if (env().NODE_ENV === "production" && !demo)
    log.info("password reset link created (no SMTP_URL: on the mailbox page, not shown in production logs)", { userId: user.id });
  else log.info("password reset link (no SMTP_URL: also kept on the mailbox page)", { email: user.email, url });
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
