import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, memberships, users, type MembershipRole } from "@/db/schema";
import { isUniqueViolation } from "@/lib/db-errors";
import { newId } from "@/lib/ids";
import type { StaffRole } from "./staff-types";
import { isEmail, normalizeEmail } from "./email";
import { ExistingUserPasswordError, StaffInputError } from "./errors";
import { hashPassword, passwordProblem, verifyPassword } from "./password";

export type CreateUserInput = {
  email: string;
  password: string;
  /** Required for owner and manager; for admin optional (support is not a member of anything). */
  businessId?: string | null;
  role: StaffRole;
};

export type CreateUserResult = {
  userId: string;
  email: string;
  /** False when the e-mail already had a user: then the password must match theirs and is not changed. */
  userCreated: boolean;
  isAdmin: boolean;
  businessId: string | null;
  role: StaffRole;
  /** What happened to the membership (`none` for admin). */
  membership: "created" | "role_changed" | "unchanged" | "none";
};

/**
 * Creates a staff user, or gives an existing one (same e-mail, any case) a membership or the
 * admin flag. An existing user's password is never changed here: the given one must match it.
 */
export async function createUser(db: Db, input: CreateUserInput): Promise<CreateUserResult> {
  const email = normalizeEmail(input.email);
  if (!isEmail(email)) throw new StaffInputError("--email must be an e-mail address");
  const problem = passwordProblem(input.password);
  if (problem) throw new StaffInputError(`--password ${problem}`);
  const businessId = input.businessId?.trim() || null;
  if (input.role !== "admin" && !businessId) throw new StaffInputError("--business is required for owner and manager");
  if (businessId) {
    const [business] = await db.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, businessId));
    if (!business) throw new StaffInputError(`no business ${businessId}`);
  }

  const existing = await findUserByEmail(db, email);
  if (existing) return addToExisting(db, existing, input.password, businessId, input.role);

  const passwordHash = await hashPassword(input.password);
  try {
    return await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ id: newId("user"), email, passwordHash, isAdmin: input.role === "admin" })
        .returning();
      if (input.role !== "admin" && businessId)
        await tx.insert(memberships).values({ userId: user!.id, businessId, role: input.role });
      return {
        userId: user!.id,
        email,
        userCreated: true,
        isAdmin: user!.isAdmin,
        businessId,
        role: input.role,
        membership: input.role === "admin" ? "none" : "created",
      } satisfies CreateUserResult;
    });
  } catch (error) {
    // Another command created the same e-mail meanwhile: treat it as existing.
    if (!isUniqueViolation(error)) throw error;
    const raced = await findUserByEmail(db, email);
    if (!raced) throw error;
    return addToExisting(db, raced, input.password, businessId, input.role);
  }
}

export function findUserByEmail(db: Db, email: string) {
  return db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, normalizeEmail(email)))
    .then((rows) => rows[0]);
}

async function addToExisting(
  db: Db,
  user: typeof users.$inferSelect,
  password: string,
  businessId: string | null,
  role: StaffRole,
): Promise<CreateUserResult> {
  if (!(await verifyPassword(user.passwordHash, password))) throw new ExistingUserPasswordError(user.email);
  const base = { userId: user.id, email: user.email, userCreated: false, businessId, role };
  if (role === "admin") {
    await db.update(users).set({ isAdmin: true }).where(eq(users.id, user.id));
    return { ...base, isAdmin: true, membership: "none" };
  }
  const memberRole: MembershipRole = role;
  const [before] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(sql`${memberships.userId} = ${user.id} AND ${memberships.businessId} = ${businessId}`);
  await db
    .insert(memberships)
    .values({ userId: user.id, businessId: businessId!, role: memberRole })
    .onConflictDoUpdate({ target: [memberships.userId, memberships.businessId], set: { role: memberRole } });
  const membership = !before ? "created" : before.role === memberRole ? "unchanged" : "role_changed";
  return { ...base, isAdmin: user.isAdmin, membership };
}
