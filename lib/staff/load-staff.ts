import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, memberships, users } from "@/db/schema";
import type { Staff, StaffAction, StaffMembership } from "./staff-types";
import { rolePermits } from "./permissions";
import { staffSessionOpen } from "./staff-sessions";
import { mustSetUpTwoFactor } from "./manage-two-factor";

/** Support's business switcher lists this many; /admin searches the rest (any id still opens). */
const adminBusinessListLimit = 200;

/**
 * The staff member behind a signed-in session, read fresh from the database on every request (so
 * a disabled user, a removed membership or a changed password takes effect at once), showing
 * `requestedBusinessId` when they may open it, else their first business. Null when the session
 * no longer stands: unknown or disabled user, session issued before `sessions_valid_after`, a
 * session row ended (signed out, "sign out everywhere", a password change: decision 0044), or no
 * business to show. `sessionId` is checked when given (a signed-in request always gives it).
 */
export async function loadStaff(
  db: Db,
  session: { userId: string; signedInAt?: number; sessionId?: string },
  requestedBusinessId?: string | null,
): Promise<Staff | null> {
  const [user] = await db.select().from(users).where(and(eq(users.id, session.userId), isNull(users.disabledAt)));
  if (!user) return null;
  // The session has whole seconds; the column has microseconds.
  if (session.signedInAt !== undefined && session.signedInAt < Math.floor(Date.parse(user.sessionsValidAfter) / 1000)) return null;
  if (session.sessionId !== undefined && !(await staffSessionOpen(db, user.id, session.sessionId))) return null;

  const own: StaffMembership[] = (
    await db
      .select({ businessId: businesses.id, businessName: businesses.name, mode: businesses.mode, role: memberships.role })
      .from(memberships)
      .innerJoin(businesses, eq(businesses.id, memberships.businessId))
      .where(eq(memberships.userId, user.id))
      .orderBy(asc(memberships.createdAt), asc(businesses.id))
  ).map((m) => ({ ...m }));

  if (user.isAdmin) {
    // Support sees every business, as `admin` (its own memberships too: its rights never shrink).
    const all: StaffMembership[] = (
      await db
        .select({ businessId: businesses.id, businessName: businesses.name, mode: businesses.mode })
        .from(businesses)
        .orderBy(asc(businesses.createdAt), asc(businesses.id))
        .limit(adminBusinessListLimit)
    ).map((b) => ({ ...b, role: "admin" as const }));
    let current = all.find((b) => b.businessId === requestedBusinessId);
    if (!current && requestedBusinessId) {
      const [opened] = await db
        .select({ businessId: businesses.id, businessName: businesses.name, mode: businesses.mode })
        .from(businesses)
        .where(eq(businesses.id, requestedBusinessId));
      if (opened) all.push((current = { ...opened, role: "admin" }));
    }
    current ??= all.find((b) => own.some((m) => m.businessId === b.businessId)) ?? all[0];
    if (!current) return null;
    const twoFactorSetUpDue = await mustSetUpTwoFactor(db, user);
    return { userId: user.id, email: user.email, isAdmin: true, businessId: current.businessId, role: "admin", memberships: all, twoFactorSetUpDue };
  }

  const current = own.find((m) => m.businessId === requestedBusinessId) ?? own[0];
  if (!current) return null;
  const twoFactorSetUpDue = await mustSetUpTwoFactor(db, user);
  return { userId: user.id, email: user.email, isAdmin: false, businessId: current.businessId, role: current.role, memberships: own, twoFactorSetUpDue };
}

/** Whether `staff` may do `action` in `businessId` (another business: only support may). */
export function staffMay(staff: Staff, action: StaffAction, businessId: string = staff.businessId): boolean {
  if (staff.isAdmin) return rolePermits("admin", action);
  const membership = staff.memberships.find((m) => m.businessId === businessId);
  return membership !== undefined && rolePermits(membership.role, action);
}
