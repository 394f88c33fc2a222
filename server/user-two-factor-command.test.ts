import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { createUser } from "@/lib/staff/create-user";
import { confirmTwoFactor, enrollTwoFactor } from "@/lib/staff/manage-two-factor";
import { newDeviceId, openStaffSession, staffSessionOpen } from "@/lib/staff/staff-sessions";
import { twoFactorEnabled } from "@/lib/staff/two-factor";
import { createTestBusiness, testDb, uniqueName } from "@/test/helpers";
import { commands, UsageError } from "./commands";

const run = (name: string, values: Record<string, string>) => commands[name]!.run(testDb(), values);

describe("npx kassa user reset-2fa", () => {
  it("removes the user's two-factor sign-in and ends their sessions at once", async () => {
    const { business } = await createTestBusiness();
    const email = `${uniqueName("tfa")}@example.com`;
    const { userId } = await createUser(testDb(), { email, password: "a staff password", businessId: business.id, role: "manager" });
    const { secret } = await enrollTwoFactor(testDb(), { userId });
    const code = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();
    await confirmTwoFactor(testDb(), { userId, code, ip: "192.0.2.40" });
    const { sessionId } = await openStaffSession(testDb(), { userId, deviceId: newDeviceId(), ip: null, userAgent: null });

    expect((await run("user reset-2fa", { email: email.toUpperCase() })).json).toMatchObject({ id: userId, two_factor_was_on: true, sessions_ended: 1 });
    expect(await twoFactorEnabled(testDb(), userId)).toBe(false);
    expect(await staffSessionOpen(testDb(), userId, sessionId)).toBe(false);
    expect((await run("user reset-2fa", { email })).json).toMatchObject({ two_factor_was_on: false, sessions_ended: 0 });
    await expect(run("user reset-2fa", { email: "nobody@example.com" })).rejects.toBeInstanceOf(UsageError);
    await expect(run("user reset-2fa", {})).rejects.toThrow("--email is required");
  });
});
