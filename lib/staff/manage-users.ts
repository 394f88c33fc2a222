import { and, asc, eq, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, users } from "@/db/schema";
import { isoMicros } from "@/lib/time";
import { findUserByEmail } from "./create-user";
import { isEmail, normalizeEmail } from "./email";
import { StaffInputError } from "./errors";
import { endUserSessions } from "./staff-sessions";
import { removeMember } from "./team-members";

export type UserListing = {
  id: string;
  email: string;
  admin: boolean;
  disabled: boolean;
  created_at: string;
  memberships: { business_id: string; role: string }[];
};

/** Every staff user (or a business's), with their memberships: `npx kassa user list`. */
export async function listUsers(db: Db, input: { businessId?: string } = {}): Promise<UserListing[]> {
  const rows = await db
    .select({ user: users, businessId: memberships.businessId, role: memberships.role })
    .from(users)
    .leftJoin(memberships, eq(memberships.userId, users.id))
    .orderBy(asc(users.createdAt), asc(users.id), asc(memberships.createdAt));
  const byId = new Map<string, UserListing>();
  for (const { user, businessId, role } of rows) {
    let listing = byId.get(user.id);
    if (!listing)
      byId.set(
        user.id,
        (listing = { id: user.id, email: user.email, admin: user.isAdmin, disabled: user.disabledAt !== null, created_at: isoMicros(user.createdAt), memberships: [] }),
      );
    if (businessId && role) listing.memberships.push({ business_id: businessId, role });
  }
  const all = [...byId.values()];
  return input.businessId ? all.filter((u) => u.memberships.some((m) => m.business_id === input.businessId)) : all;
}

async function userByEmail(db: Db, raw: string) {
  const email = normalizeEmail(raw);
  if (!isEmail(email)) throw new StaffInputError("--email must be an e-mail address");
  const user = await findUserByEmail(db, email);
  if (!user) throw new StaffInputError(`no user ${email}`);
  return user;
}

/** Businesses where the user is the only active owner (disabling them would leave it without one). */
async function soleOwnerOf(db: Db, userId: string): Promise<string[]> {
  const owned = await db
    .select({ businessId: memberships.businessId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.role, "owner")));
  const sole: string[] = [];
  for (const { businessId } of owned) {
    const [other] = await db
      .select({ userId: memberships.userId })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.businessId, businessId), eq(memberships.role, "owner"), ne(memberships.userId, userId), isNull(users.disabledAt)))
      .limit(1);
    if (!other) sole.push(businessId);
  }
  return sole;
}

/**
 * Disables a user: they cannot sign in, their sessions end at once. Refused, changing nothing,
 * for the last active owner of a business (make someone else owner first).
 */
export async function disableUser(db: Db, input: { email: string }): Promise<{ id: string; email: string; sessionsEnded: number; alreadyDisabled: boolean }> {
  const user = await userByEmail(db, input.email);
  const sole = await soleOwnerOf(db, user.id);
  if (sole.length && !user.disabledAt)
    throw new StaffInputError(`${user.email} is the last active owner of ${sole.join(", ")}: make someone else an owner first; nothing was changed`);
  return db.transaction(async (tx) => {
    const [changed] = await tx.update(users).set({ disabledAt: sql`now()` }).where(and(eq(users.id, user.id), isNull(users.disabledAt))).returning({ id: users.id });
    const sessionsEnded = await endUserSessions(tx, user.id);
    return { id: user.id, email: user.email, sessionsEnded, alreadyDisabled: !changed };
  });
}

/** Enables a disabled user again (their password is unchanged). */
export async function enableUser(db: Db, input: { email: string }): Promise<{ id: string; email: string }> {
  const user = await userByEmail(db, input.email);
  await db.update(users).set({ disabledAt: null }).where(eq(users.id, user.id));
  return { id: user.id, email: user.email };
}

/**
 * Removes a user from one business (like the Team page), or with no business from every business
 * and disables the account (the row stays: invitations and approvals name it). The last owner of
 * a business cannot be removed. Sessions end at once.
 */
export async function removeUser(db: Db, input: { email: string; businessId?: string | null }): Promise<{ id: string; email: string; removedFrom: string[] }> {
  const user = await userByEmail(db, input.email);
  if (input.businessId) {
    try {
      await removeMember(db, { businessId: input.businessId, userId: user.id });
    } catch (error) {
      if (error instanceof Error && "code" in error) throw new StaffInputError(error.message);
      throw error;
    }
    return { id: user.id, email: user.email, removedFrom: [input.businessId] };
  }
  const sole = await soleOwnerOf(db, user.id);
  if (sole.length) throw new StaffInputError(`${user.email} is the last active owner of ${sole.join(", ")}: make someone else an owner first; nothing was changed`);
  return db.transaction(async (tx) => {
    const removed = await tx.delete(memberships).where(eq(memberships.userId, user.id)).returning({ businessId: memberships.businessId });
    await tx.update(users).set({ disabledAt: sql`coalesce(${users.disabledAt}, now())`, isAdmin: false }).where(eq(users.id, user.id));
    await endUserSessions(tx, user.id);
    return { id: user.id, email: user.email, removedFrom: removed.map((r) => r.businessId) };
  });
}
