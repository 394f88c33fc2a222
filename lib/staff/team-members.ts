import { and, asc, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, users, type MembershipRole } from "@/db/schema";
import { ConflictError, NotFoundError, ValidationError } from "@/lib/errors";
import { isoMicros } from "@/lib/time";
import { endUserSessions } from "./staff-sessions";

export type MemberView = { userId: string; email: string; role: MembershipRole; disabled: boolean; joinedAt: string };

/** The business's members, owners first, then by when they joined. */
export async function listMembers(db: Db, businessId: string): Promise<MemberView[]> {
  const rows = await db
    .select({ userId: users.id, email: users.email, role: memberships.role, disabledAt: users.disabledAt, joinedAt: memberships.createdAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.businessId, businessId))
    .orderBy(desc(memberships.role), asc(memberships.createdAt));
  return rows.map((r) => ({ userId: r.userId, email: r.email, role: r.role, disabled: r.disabledAt !== null, joinedAt: isoMicros(r.joinedAt) }));
}

/** Removing or demoting the business's last active owner: nobody could manage its team or keys. */
export class LastOwnerError extends ConflictError {
  constructor() {
    super("last_owner", "A business needs at least one owner: make someone else an owner first. Nothing was changed.");
  }
}

/**
 * Locks the business's owner memberships (so two owners demoting each other at once are taken one
 * after the other) and refuses when `userId` is its last active owner.
 */
async function guardLastOwner(tx: Db, businessId: string, userId: string): Promise<void> {
  const owners = await tx
    .select({ userId: memberships.userId, disabledAt: users.disabledAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.businessId, businessId), eq(memberships.role, "owner")))
    .for("update", { of: memberships });
  const others = owners.filter((o) => o.userId !== userId && o.disabledAt === null);
  if (owners.some((o) => o.userId === userId) && others.length === 0) throw new LastOwnerError();
}

async function membershipOf(tx: Db, businessId: string, userId: string) {
  const [row] = await tx
    .select({ role: memberships.role, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.businessId, businessId), eq(memberships.userId, userId)));
  if (!row) throw new NotFoundError("member_not_found", "This person is not a member of the business (removed meanwhile?). Nothing was changed.");
  return row;
}

/** Changes a member's role; the last owner cannot be demoted. */
export async function changeMemberRole(db: Db, input: { businessId: string; userId: string; role: string }): Promise<{ email: string; role: MembershipRole; changed: boolean }> {
  if (input.role !== "owner" && input.role !== "manager") throw ValidationError.field("role", "Choose owner or manager");
  const role: MembershipRole = input.role;
  return db.transaction(async (tx) => {
    if (role === "manager") await guardLastOwner(tx, input.businessId, input.userId);
    const current = await membershipOf(tx, input.businessId, input.userId);
    if (current.role === role) return { email: current.email, role, changed: false };
    await tx.update(memberships).set({ role }).where(and(eq(memberships.businessId, input.businessId), eq(memberships.userId, input.userId)));
    return { email: current.email, role, changed: true };
  });
}

/**
 * Removes a member from the business and ends their sessions at once (decision 0044); the last
 * owner cannot be removed. Their account stays (other businesses, a later invitation).
 */
export async function removeMember(db: Db, input: { businessId: string; userId: string }): Promise<{ email: string; sessionsEnded: number }> {
  return db.transaction(async (tx) => {
    await guardLastOwner(tx, input.businessId, input.userId);
    const current = await membershipOf(tx, input.businessId, input.userId);
    await tx.delete(memberships).where(and(eq(memberships.businessId, input.businessId), eq(memberships.userId, input.userId)));
    const sessionsEnded = await endUserSessions(tx, input.userId);
    return { email: current.email, sessionsEnded };
  });
}
