import { describe, expect, it } from "vitest";
import { createTestBusiness, testDb, uniqueName } from "@/test/helpers";
import { createUser } from "./create-user";
import { loadStaff } from "./load-staff";
import { newDeviceId, openStaffSession } from "./staff-sessions";
import { changeMemberRole, LastOwnerError, listMembers, removeMember } from "./team-members";

async function member(businessId: string, role: "owner" | "manager") {
  const email = `${uniqueName(role)}@example.com`;
  return (await createUser(testDb(), { email, password: "a member password", businessId, role })).userId;
}

describe("team members (decision 0044)", () => {
  it("lists members owners first, changes roles, and never demotes or removes the last owner", async () => {
    const { business } = await createTestBusiness();
    const owner = await member(business.id, "owner");
    const manager = await member(business.id, "manager");
    expect((await listMembers(testDb(), business.id)).map((m) => [m.userId, m.role])).toEqual([
      [owner, "owner"],
      [manager, "manager"],
    ]);
    await expect(changeMemberRole(testDb(), { businessId: business.id, userId: owner, role: "manager" })).rejects.toBeInstanceOf(LastOwnerError);
    await expect(removeMember(testDb(), { businessId: business.id, userId: owner })).rejects.toMatchObject({ code: "last_owner" });
    await expect(changeMemberRole(testDb(), { businessId: business.id, userId: owner, role: "admin" })).rejects.toMatchObject({ code: "validation_failed" });
    await expect(changeMemberRole(testDb(), { businessId: business.id, userId: "usr_nobody", role: "owner" })).rejects.toMatchObject({ code: "member_not_found" });

    expect(await changeMemberRole(testDb(), { businessId: business.id, userId: manager, role: "owner" })).toMatchObject({ role: "owner", changed: true });
    expect(await changeMemberRole(testDb(), { businessId: business.id, userId: owner, role: "manager" })).toMatchObject({ role: "manager", changed: true });
    expect((await listMembers(testDb(), business.id)).find((m) => m.userId === owner)?.role).toBe("manager");
  });

  it("removal ends the member's sessions at once", async () => {
    const { business } = await createTestBusiness();
    await member(business.id, "owner");
    const manager = await member(business.id, "manager");
    const { sessionId } = await openStaffSession(testDb(), { userId: manager, deviceId: newDeviceId(), ip: null, userAgent: null });
    expect(await loadStaff(testDb(), { userId: manager, sessionId })).not.toBeNull();
    const removed = await removeMember(testDb(), { businessId: business.id, userId: manager });
    expect(removed.sessionsEnded).toBe(1);
    expect(await loadStaff(testDb(), { userId: manager, sessionId })).toBeNull();
    expect((await listMembers(testDb(), business.id)).some((m) => m.userId === manager)).toBe(false);
    await expect(removeMember(testDb(), { businessId: business.id, userId: manager })).rejects.toMatchObject({ code: "member_not_found" });
  });

  it("two owners demoting each other at once leave one owner", async () => {
    const { business } = await createTestBusiness();
    const a = await member(business.id, "owner");
    const b = await member(business.id, "owner");
    const results = await Promise.allSettled([
      changeMemberRole(testDb(), { businessId: business.id, userId: a, role: "manager" }),
      removeMember(testDb(), { businessId: business.id, userId: b }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toBeInstanceOf(LastOwnerError);
    expect((await listMembers(testDb(), business.id)).filter((m) => m.role === "owner")).toHaveLength(1);
  });
});
