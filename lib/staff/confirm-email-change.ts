import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { emailChangeTokens, memberships, users } from "@/db/schema";
import { staffActor, type AuditClient } from "@/lib/audit/audit-actor";
import { recordAudit } from "@/lib/audit/record-audit";
import { sha256Hex } from "@/lib/crypto";
import { isUniqueViolation } from "@/lib/db-errors";
import { endUserSessions } from "./staff-sessions";

/** The link is wrong, used or expired (one answer for all three); nothing was changed. */
export class InvalidEmailChangeTokenError extends Error {
  constructor() {
    super("This confirmation link is invalid, was used already or has expired. Nothing was changed; ask for a new one on your account page.");
    this.name = "InvalidEmailChangeTokenError";
  }
}

/** Another account took the new address after the link was sent; nothing was changed. */
export class EmailTakenError extends Error {
  constructor(readonly email: string) {
    super(`${email} now belongs to another Kassa account, so it cannot become yours. Nothing was changed.`);
    this.name = "EmailTakenError";
  }
}

export type ConfirmEmailChangeInput = {
  token: string;
  /** The session opening the link, when it is the same user's: it stays signed in. */
  keepSessionId?: string | null;
  client?: AuditClient;
  now?: Date;
};

/**
 * Makes the new address the user's sign-in e-mail (decision 0052), in one transaction: the token is
 * claimed by a conditional UPDATE (so two submissions cannot both pass), the user row locked, the
 * address checked free again (another account may have taken it since the request) and written,
 * the user's other open tokens spent, their other sessions ended, and `member.email_change`
 * recorded in each business they belong to. Any refusal rolls everything back.
 */
export async function confirmEmailChange(db: Db, input: ConfirmEmailChangeInput): Promise<{ userId: string; email: string; sessionsEnded: number }> {
  if (!/^[0-9A-Za-z]{43}$/.test(input.token)) throw new InvalidEmailChangeTokenError();
  const now = (input.now ?? new Date()).toISOString();
  try {
    return await db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(emailChangeTokens)
        .set({ usedAt: now })
        .where(and(eq(emailChangeTokens.digest, sha256Hex(input.token)), isNull(emailChangeTokens.usedAt), gt(emailChangeTokens.expiresAt, now)))
        .returning({ id: emailChangeTokens.id, userId: emailChangeTokens.userId, newEmail: emailChangeTokens.newEmail });
      if (!claimed) throw new InvalidEmailChangeTokenError();
      const [user] = await tx.select().from(users).where(eq(users.id, claimed.userId)).for("update");
      if (!user || user.disabledAt) throw new InvalidEmailChangeTokenError();
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(sql`lower(${users.email})`, claimed.newEmail), ne(users.id, user.id)));
      if (taken) throw new EmailTakenError(claimed.newEmail);
      await tx.update(users).set({ email: claimed.newEmail }).where(eq(users.id, user.id));
      await tx
        .update(emailChangeTokens)
        .set({ usedAt: now })
        .where(and(eq(emailChangeTokens.userId, user.id), isNull(emailChangeTokens.usedAt), ne(emailChangeTokens.id, claimed.id)));
      const sessionsEnded = await endUserSessions(tx, user.id, input.keepSessionId ?? null);
      const actor = staffActor({ userId: user.id, email: user.email, client: input.client });
      const own = await tx.select({ businessId: memberships.businessId }).from(memberships).where(eq(memberships.userId, user.id));
      for (const { businessId } of own)
        await recordAudit(tx, {
          businessId,
          action: "member.email_change",
          target: { type: "user", id: user.id },
          changes: { email: { from: user.email, to: claimed.newEmail } },
          actor,
        });
      return { userId: user.id, email: claimed.newEmail, sessionsEnded };
    });
  } catch (error) {
    // Two accounts raced for the address: the unique index on lower(email) refused the second.
    if (isUniqueViolation(error, "users_email_lower_idx")) throw new EmailTakenError((await emailOf(db, input.token)) ?? "That e-mail");
    throw error;
  }
}

/** The pending change a link stands for (read only, for the page before the button), or null when it cannot be used. */
export async function findEmailChange(db: Db, token: string, now: Date = new Date()): Promise<{ newEmail: string; expiresAt: string } | null> {
  if (!/^[0-9A-Za-z]{43}$/.test(token)) return null;
  const [row] = await db
    .select({ newEmail: emailChangeTokens.newEmail, expiresAt: emailChangeTokens.expiresAt })
    .from(emailChangeTokens)
    .innerJoin(users, eq(users.id, emailChangeTokens.userId))
    .where(and(eq(emailChangeTokens.digest, sha256Hex(token)), isNull(emailChangeTokens.usedAt), gt(emailChangeTokens.expiresAt, now.toISOString()), isNull(users.disabledAt)));
  return row ?? null;
}

async function emailOf(db: Db, token: string): Promise<string | null> {
  const [row] = await db.select({ newEmail: emailChangeTokens.newEmail }).from(emailChangeTokens).where(eq(emailChangeTokens.digest, sha256Hex(token)));
  return row?.newEmail ?? null;
}
