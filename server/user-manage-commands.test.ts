import { describe, expect, it } from "vitest";
import { createUser } from "@/lib/staff/create-user";
import { loadStaff } from "@/lib/staff/load-staff";
import { newDeviceId, openStaffSession } from "@/lib/staff/staff-sessions";
import { createTestBusiness, testDb, uniqueName } from "@/test/helpers";
import { commands, UsageError } from "./commands";

// `npx kassa user list|disable|enable|remove`, run in-process on the test database (the CLI's
// process wiring is server/user-create-cli.test.ts's).
const run = (name: string, values: Record<string, string>) => commands[name]!.run(testDb(), values);

async function staff(businessId: string, role: "owner" | "manager") {
  const email = `${uniqueName(role)}@example.com`;
  const { userId } = await createUser(testDb(), { email, password: "a staff password", businessId, role });
  return { email, userId };
}

describe("npx kassa user list, disable, enable, remove", () => {
  it("lists users with their memberships, for one business too", async () => {
    const { business } = await createTestBusiness();
    const owner = await staff(business.id, "owner");
    const manager = await staff(business.id, "manager");
    const listed = (await run("user list", { business: business.id })).json as { data: { email: string; memberships: unknown[] }[] };
    expect(listed.data.map((u) => u.email)).toEqual([owner.email, manager.email]);
    expect(listed.data[1]!.memberships).toEqual([{ business_id: business.id, role: "manager" }]);
    expect((await run("user list", {})).text).toContain(manager.email);
  });

  it("disables a user and ends their sessions; never the last owner; enable undoes it", async () => {
    const { business } = await createTestBusiness();
    const owner = await staff(business.id, "owner");
    const manager = await staff(business.id, "manager");
    const { sessionId } = await openStaffSession(testDb(), { userId: manager.userId, deviceId: newDeviceId(), ip: null, userAgent: null });
    expect((await run("user disable", { email: manager.email.toUpperCase() })).json).toMatchObject({ disabled: true, sessions_ended: 1 });
    expect(await loadStaff(testDb(), { userId: manager.userId, sessionId })).toBeNull();
    await expect(run("user disable", { email: owner.email })).rejects.toThrow(/last active owner/);
    await expect(run("user disable", { email: "nobody@example.com" })).rejects.toBeInstanceOf(UsageError);
    await expect(run("user disable", {})).rejects.toThrow("--email is required");
    await run("user enable", { email: manager.email });
    expect(await loadStaff(testDb(), { userId: manager.userId })).not.toBeNull();
  });

  it("removes a user from one business or from all (then disabled); never the last owner", async () => {
    const { business } = await createTestBusiness();
    const other = await createTestBusiness();
    const owner = await staff(business.id, "owner");
    const manager = await staff(business.id, "manager");
    await createUser(testDb(), { email: manager.email, password: "a staff password", businessId: other.business.id, role: "manager" });
    await expect(run("user remove", { email: owner.email, business: business.id })).rejects.toThrow(/at least one owner/);
    expect((await run("user remove", { email: manager.email, business: business.id })).json).toMatchObject({ removed_from: [business.id] });
    expect((await loadStaff(testDb(), { userId: manager.userId }))?.businessId).toBe(other.business.id);
    expect((await run("user remove", { email: manager.email })).json).toMatchObject({ removed_from: [other.business.id], disabled: true });
    expect(await loadStaff(testDb(), { userId: manager.userId })).toBeNull();
    await expect(run("user remove", { email: owner.email })).rejects.toThrow(/last active owner/);
  });
});
