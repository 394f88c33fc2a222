import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, invitations, memberships, users, type Invitation } from "@/db/schema";
import { sha256Hex } from "@/lib/crypto";
import { isUniqueViolation } from "@/lib/db-errors";
import { origin } from "@/lib/env";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { recordAudit } from "@/lib/audit/record-audit";
import { newId, randomToken } from "@/lib/ids";
import { isoMicros, parseDbTime } from "@/lib/time";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { enqueueMail } from "@/lib/mail/enqueue-mail";
import { invitationMail } from "@/lib/mail/messages";
import { isEmail, normalizeEmail } from "./email";

/** How long an invitation link works (decision 0044). */
export const invitationLifetimeMs = 7 * 24 * 60 * 60 * 1000;

export type InvitationRole = Invitation["role"];
export type Inviter = { userId: string; email: string };

/** The page a link opens: /dashboard/invitation?token=… (app/(auth)/dashboard/invitation). */
export function invitationUrl(token: string): string {
  return `${origin()}/dashboard/invitation?token=${encodeURIComponent(token)}`;
}

/** An open invitation as the Team page lists it (never its token). */
export type InvitationView = { id: string; email: string; role: InvitationRole; invitedBy: string | null; expiresAt: string; expired: boolean; createdAt: string };

/** Open (not accepted, not revoked) invitations of a business, oldest first; expired ones marked. */
export async function listInvitations(db: Db, businessId: string, now = new Date()): Promise<InvitationView[]> {
  const rows = await db
    .select({ invitation: invitations, inviter: users.email })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(and(eq(invitations.businessId, businessId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .orderBy(asc(invitations.createdAt));
  return rows.map(({ invitation, inviter }) => viewOf(invitation, inviter, now));
}

/**
 * Invites an e-mail to the business with a role, and sends the invitation (one transaction: the
 * row, the message and its job). Refused, changing nothing: a bad e-mail or role, someone already a
 * member, an open invitation for the same e-mail (resend it instead). An expired open one is
 * replaced. Returns the token for tests.
 */
export async function inviteStaff(
  db: Db,
  input: { businessId: string; email: string; role: string; inviter: Inviter; now?: Date },
): Promise<{ invitation: InvitationView; token: string }> {
  const email = normalizeEmail(input.email);
  if (!isEmail(email)) throw ValidationError.field("email", "Enter the e-mail address to invite");
  if (input.role !== "owner" && input.role !== "manager") throw ValidationError.field("role", "Choose owner or manager");
  const role: InvitationRole = input.role;
  const now = input.now ?? new Date();
  try {
    return await transactionWithJobs(db, async (tx) => {
      const [member] = await tx
        .select({ role: memberships.role })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.businessId, input.businessId), eq(sql`lower(${users.email})`, email)));
      if (member) throw new ConflictError("already_member", `${email} is already a member of this business (${member.role}); change their role on the Team page instead.`);
      // An open invitation past its 7 days no longer blocks a new one.
      await tx
        .update(invitations)
        .set({ revokedAt: now.toISOString() })
        .where(and(eq(invitations.businessId, input.businessId), eq(sql`lower(${invitations.email})`, email), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), sql`${invitations.expiresAt} <= ${now.toISOString()}`));
      const token = randomToken(43);
      const [row] = await tx
        .insert(invitations)
        .values({ id: newId("invitation"), businessId: input.businessId, email, role, digest: sha256Hex(token), invitedBy: input.inviter.userId, expiresAt: new Date(now.getTime() + invitationLifetimeMs).toISOString() })
        .returning();
      await sendInvitation(tx, row!, token, input.inviter.email);
      await recordAudit(tx, { businessId: input.businessId, action: "member.invite", target: { type: "invitation", id: row!.id }, changes: { email: { from: null, to: email }, role: { from: null, to: role } } });
      return { invitation: viewOf(row!, input.inviter.email, now), token };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError("already_invited", `${email} already has an open invitation; resend it instead.`);
    throw error;
  }
}

/** Sends the invitation again with a new link (the old one stops working) and 7 more days. */
export async function resendInvitation(db: Db, input: { businessId: string; invitationId: string; inviter: Inviter; now?: Date }): Promise<{ invitation: InvitationView; token: string }> {
  const now = input.now ?? new Date();
  const token = randomToken(43);
  return transactionWithJobs(db, async (tx) => {
    const [row] = await tx
      .update(invitations)
      .set({ digest: sha256Hex(token), expiresAt: new Date(now.getTime() + invitationLifetimeMs).toISOString(), invitedBy: input.inviter.userId })
      .where(openInvitation(input.businessId, input.invitationId))
      .returning();
    if (!row) throw new NotFoundError("invitation_not_found", "This invitation was accepted or revoked meanwhile; nothing was sent.");
    await sendInvitation(tx, row, token, input.inviter.email);
    await recordAudit(tx, { businessId: input.businessId, action: "member.invite_resend", target: { type: "invitation", id: row.id }, changes: { expires_at: { from: null, to: row.expiresAt } } });
    return { invitation: viewOf(row, input.inviter.email, now), token };
  });
}

/** Revokes an open invitation: its link stops working at once (and the audit log says who revoked it). */
export async function revokeInvitation(db: Db, input: { businessId: string; invitationId: string }): Promise<{ email: string }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(invitations)
      .set({ revokedAt: sql`now()` })
      .where(openInvitation(input.businessId, input.invitationId))
      .returning({ email: invitations.email, role: invitations.role });
    if (!row) throw new NotFoundError("invitation_not_found", "This invitation was accepted or revoked meanwhile.");
    await recordAudit(tx, { businessId: input.businessId, action: "member.invite_revoke", target: { type: "invitation", id: input.invitationId }, changes: { email: { from: row.email, to: null }, role: { from: row.role, to: null } } });
    return { email: row.email };
  });
}

/** The open invitation a token names, still within its 7 days (with its business's name), or null. */
export async function findInvitationByToken(db: Db, token: string, now = new Date()) {
  if (!/^[0-9A-Za-z]{43}$/.test(token)) return null;
  const [row] = await db
    .select({ invitation: invitations, businessName: businesses.name })
    .from(invitations)
    .innerJoin(businesses, eq(businesses.id, invitations.businessId))
    .where(and(eq(invitations.digest, sha256Hex(token)), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now.toISOString())));
  return row ?? null;
}

function openInvitation(businessId: string, invitationId: string) {
  return and(eq(invitations.id, invitationId), eq(invitations.businessId, businessId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt));
}

async function sendInvitation(tx: Db, row: Invitation, token: string, inviter: string) {
  const [business] = await tx.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, row.businessId));
  await enqueueMail(tx, {
    businessId: row.businessId,
    kind: "staff_invitation",
    to: row.email,
    parts: invitationMail({ businessName: business?.name ?? "a business", inviter, role: row.role, url: invitationUrl(token), expiresAt: isoMicros(row.expiresAt) }),
  });
}

function viewOf(row: Invitation, inviter: string | null, now: Date): InvitationView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invitedBy: inviter,
    expiresAt: isoMicros(row.expiresAt),
    expired: parseDbTime(row.expiresAt).getTime() <= now.getTime(),
    createdAt: isoMicros(row.createdAt),
  };
}
