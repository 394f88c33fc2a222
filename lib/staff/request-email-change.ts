import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { emailChangeTokens, users } from "@/db/schema";
import { sha256Hex } from "@/lib/crypto";
import { origin } from "@/lib/env";
import { newId, randomToken } from "@/lib/ids";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { enqueueMail } from "@/lib/mail/enqueue-mail";
import { emailChangeMail, emailChangeNoticeMail } from "@/lib/mail/messages";
import { findUserByEmail } from "./create-user";
import { isEmail, normalizeEmail } from "./email";
import { StaffInputError } from "./errors";
import { countLoginAttempt, forgiveLoginAttempt } from "./login-rate-limit";
import { checkSignInPassword } from "./password";
import { twoFactorEnabled, verifySecondFactor } from "./two-factor";

/** How long a confirmation link for a new e-mail works. */
export const emailChangeLifetimeMs = 24 * 60 * 60 * 1000;

/** The page the confirmation link opens. */
export function emailChangeLink(token: string): string {
  return `${origin()}/dashboard/confirm-email?token=${encodeURIComponent(token)}`;
}

export type RequestEmailChangeInput = {
  userId: string;
  newEmail: string;
  currentPassword: string;
  /** A code from the authenticator app (or a recovery code); asked only when two-factor sign-in is on. */
  code?: string;
  ip: string | null;
  now?: Date;
};

/**
 * The account page's "Change e-mail" (decision 0052): the current password (and, with two-factor
 * sign-in on, a code) is checked within the sign-in rate limit; the new address must be well-formed
 * and nobody else's. A single-use token (only its SHA-256 kept, 24 hours) is written with two
 * messages in one transaction: the link to the new address, a notice without link to the old one.
 * An earlier open request of the user is spent: only the latest link works. Nothing changes on the
 * account until the link is opened (confirmEmailChange). Returns the token for tests.
 */
export async function requestEmailChange(db: Db, input: RequestEmailChangeInput): Promise<{ token: string; expiresAt: string }> {
  const [user] = await db.select().from(users).where(eq(users.id, input.userId));
  if (!user || user.disabledAt) throw new StaffInputError("This account is disabled.");
  const newEmail = normalizeEmail(input.newEmail);
  if (!isEmail(newEmail)) throw new StaffInputError("Enter a valid e-mail address.");
  if (newEmail === normalizeEmail(user.email)) throw new StaffInputError("That is already your sign-in e-mail.");

  const attempt = { email: user.email, ip: input.ip };
  await countLoginAttempt(db, attempt);
  if (!(await checkSignInPassword(user.passwordHash, input.currentPassword))) throw new StaffInputError("The current password is wrong. Nothing was changed.");
  await forgiveLoginAttempt(db, attempt);
  if (await twoFactorEnabled(db, user.id)) {
    if (!input.code?.trim()) throw new StaffInputError("Enter a code from your authenticator app (or a recovery code).");
    if (!(await verifySecondFactor(db, { userId: user.id, code: input.code, ip: input.ip, now: input.now?.getTime() })))
      throw new StaffInputError("That code is not right (or was used already). Nothing was changed.");
  }
  // Checked after the password, so only the account's holder learns whether an address is taken.
  if (await findUserByEmail(db, newEmail)) throw new StaffInputError("That e-mail belongs to another Kassa account. Nothing was changed.");

  const token = randomToken(43);
  const now = input.now ?? new Date();
  const expiresAt = new Date(now.getTime() + emailChangeLifetimeMs).toISOString();
  await transactionWithJobs(db, async (tx) => {
    await tx
      .update(emailChangeTokens)
      .set({ usedAt: now.toISOString() })
      .where(and(eq(emailChangeTokens.userId, user.id), isNull(emailChangeTokens.usedAt)));
    await tx.insert(emailChangeTokens).values({ id: newId("emailChange"), userId: user.id, newEmail, digest: sha256Hex(token), expiresAt });
    await enqueueMail(tx, {
      businessId: null,
      kind: "email_change",
      to: newEmail,
      parts: emailChangeMail({ oldEmail: user.email, newEmail, url: emailChangeLink(token), expiresAt }),
    });
    await enqueueMail(tx, { businessId: null, kind: "email_change_notice", to: user.email, parts: emailChangeNoticeMail({ newEmail }) });
  });
  return { token, expiresAt };
}
