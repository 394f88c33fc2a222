import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "@/db/schema";
import { createTestBusiness, testDb, uniqueName } from "@/test/helpers";
import type { StaffAction, StaffRole } from "./current-staff";
import { createUser } from "./create-user";
import { loadStaff, staffMay } from "./load-staff";
import { permissionMatrix } from "./permissions";

const actions: StaffAction[] = ["read", "refund", "review", "subscriptions", "payouts", "webhooks", "api_keys", "settings", "team", "stripe", "audit"];
const roles: StaffRole[] = ["owner", "manager", "admin"];

/** What each role may do in its own business (decision 0018); in another business only admin may do anything. */
const expected: Record<StaffRole, StaffAction[]> = {
  owner: actions,
  manager: ["read", "refund", "review", "subscriptions", "payouts", "webhooks"],
  // Support never holds a merchant's own Stripe keys.
  admin: actions.filter((action) => action !== "stripe"),
};

async function staffWith(role: StaffRole, businessId: string) {
  const email = `${uniqueName(role)}@example.com`;
  const created = await createUser(testDb(), { email, password: "a long password", businessId, role });
  return created.userId;
}

describe("the permission matrix: role × action × own/other business, through the database", () => {
  let own: Awaited<ReturnType<typeof createTestBusiness>>;
  let other: Awaited<ReturnType<typeof createTestBusiness>>;
  beforeAll(async () => {
    own = await createTestBusiness();
    other = await createTestBusiness();
  });
  const cases = roles.flatMap((role) =>
    actions.flatMap((action) =>
      (["own", "other"] as const).map((where) => ({ role, action, where, allowed: where === "own" || role === "admin" ? expected[role].includes(action) : false })),
    ),
  );

  it.each(cases)("$role may $action in the $where business: $allowed", async ({ role, action, where, allowed }) => {
    const userId = await staffWith(role, own.business.id);
    const target = where === "own" ? own.business.id : other.business.id;
    const staff = await loadStaff(testDb(), { userId });
    expect(staff).not.toBeNull();
    expect(staffMay(staff!, action, target)).toBe(allowed);
    // Asking to show the other business: members stay in their own, support opens it as admin.
    const switched = await loadStaff(testDb(), { userId }, other.business.id);
    expect(switched!.businessId).toBe(role === "admin" ? other.business.id : own.business.id);
    expect(switched!.role).toBe(role);
    expect(staffMay(switched!, action)).toBe(expected[role].includes(action));
  });

  it("matches the exported matrix", () => {
    for (const role of roles) for (const action of actions) expect(permissionMatrix[role][action]).toBe(expected[role].includes(action));
  });

  it("a user of two businesses switches between them with their role in each", async () => {
    const email = `${uniqueName("two")}@example.com`;
    const { userId } = await createUser(testDb(), { email, password: "a long password", businessId: own.business.id, role: "owner" });
    await createUser(testDb(), { email, password: "a long password", businessId: other.business.id, role: "manager" });
    const first = await loadStaff(testDb(), { userId });
    expect(first).toMatchObject({ businessId: own.business.id, role: "owner", isAdmin: false });
    expect(first!.memberships.map((m) => [m.businessId, m.role])).toEqual([
      [own.business.id, "owner"],
      [other.business.id, "manager"],
    ]);
    const switched = await loadStaff(testDb(), { userId }, other.business.id);
    expect(switched).toMatchObject({ businessId: other.business.id, role: "manager" });
    expect(staffMay(switched!, "api_keys")).toBe(false);
    expect(staffMay(switched!, "api_keys", own.business.id)).toBe(true);
    // An id that is not theirs (or not a business at all) falls back to their first.
    expect((await loadStaff(testDb(), { userId }, "biz_nope"))!.businessId).toBe(own.business.id);
  });

  it("a disabled user, an unknown one and a session older than the last password change get nothing", async () => {
    const userId = await staffWith("owner", own.business.id);
    const later = Math.floor(Date.now() / 1000) + 5;
    expect(await loadStaff(testDb(), { userId, signedInAt: later })).not.toBeNull();
    await testDb().update(users).set({ sessionsValidAfter: new Date((later + 10) * 1000).toISOString() }).where(eq(users.id, userId));
    expect(await loadStaff(testDb(), { userId, signedInAt: later })).toBeNull();
    await testDb().update(users).set({ sessionsValidAfter: new Date(0).toISOString(), disabledAt: new Date().toISOString() }).where(eq(users.id, userId));
    expect(await loadStaff(testDb(), { userId })).toBeNull();
    expect(await loadStaff(testDb(), { userId: "usr_unknown" })).toBeNull();
  });
});
