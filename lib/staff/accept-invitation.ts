import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { invitations, memberships, users } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { sha256Hex } from "@/lib/crypto";
import { DomainError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { findUserByEmail } from "./create-user";
import { StaffInputError } from "./errors";
import { findInvitationByToken } from "./invitations";
import { countLoginAttempt, forgiveLoginAttempt } from "./login-rate-limit";
import { checkSignInPassword, hashPassword, passwordProblem } from "./password";

/** The link is wrong, used, revoked or expired (one answer for all). */
export class InvalidInvitationError extends DomainError {
  readonly code = "invitation_invalid";
  constructor() {
    super("This invitation link is invalid, already used, revoked or expired. Ask an owner of the business for a new one.");
  }
}

export type AcceptedInvitation = { userId: string; email: string; businessId: string; userCreated: boolean };

/**
 * Accepts an invitation: a new account with the chosen password, or, when the e-mail already has
 * an account, that account after its password is checked (within the sign-in rate limit). The
 * invitation is claimed by a conditional UPDATE in the transaction that adds the membership, so it
 * works once even under parallel submissions; a refused password spends nothing.
 */
export async function acceptInvitation(
  db: Db,
  input: { token: string; password: string; ip: string | null; userAgent?: string | null; now?: Date },
): Promise<AcceptedInvitation> {
  const now = input.now ?? new Date();
  const found = await findInvitationByToken(db, input.token, now);
  if (!found) throw new InvalidInvitationError();
  const { invitation } = found;
  const existing = await findUserByEmail(db, invitation.email);
  let passwordHash: string | null = null;
  if (existing) {
    const attempt = { email: existing.email, ip: input.ip };
    await countLoginAttempt(db, attempt);
    const valid = await checkSignInPassword(existing.disabledAt ? null : existing.passwordHash, input.password);
    if (!valid) {
      // A parallel acceptance of this link may have created this very account: then the link is spent.
      if (!(await findInvitationByToken(db, input.token, now))) throw new InvalidInvitationError();
      throw new StaffInputError(`Wrong password for the account ${existing.email}. Enter that account's password to join (or reset it first).`);
    }
    await forgiveLoginAttempt(db, attempt);
  } else {
    const problem = passwordProblem(input.password);
    if (problem) throw new StaffInputError(`The password ${problem}.`);
    passwordHash = await hashPassword(input.password);
  }
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(invitations)
      .set({ acceptedAt: now.toISOString() })
      .where(
        and(
          eq(invitations.digest, sha256Hex(input.token)),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
          gt(invitations.expiresAt, now.toISOString()),
        ),
      )
      .returning();
    if (!claimed) throw new InvalidInvitationError();
    let userId = existing?.id;
    if (!userId) {
      const [created] = await tx.insert(users).values({ id: newId("user"), email: claimed.email, passwordHash: passwordHash! }).returning({ id: users.id });
      userId = created!.id;
    }
    // A member meanwhile (added by the CLI) keeps the role they have.
    await tx.insert(memberships).values({ userId, businessId: claimed.businessId, role: claimed.role }).onConflictDoNothing();
    await tx.update(invitations).set({ acceptedBy: userId }).where(eq(invitations.id, claimed.id));
    // Recorded as the one who joins: nobody is signed in yet, the link is their credential.
    await recordAudit(tx, {
      businessId: claimed.businessId,
      action: "member.join",
      target: { type: "user", id: userId },
      changes: { email: { from: null, to: claimed.email }, role: { from: null, to: claimed.role }, invitation: { from: null, to: claimed.id } },
      actor: { type: "user", userId, email: claimed.email, ip: input.ip, userAgent: input.userAgent ?? null },
    });
    return { userId, email: claimed.email, businessId: claimed.businessId, userCreated: !existing };
  });
}
