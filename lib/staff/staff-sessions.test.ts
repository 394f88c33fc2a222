import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailMessages } from "@/db/schema";
import { createTestBusiness, testDb, uniqueName } from "@/test/helpers";
import { authenticate } from "./authenticate";
import { changePassword } from "./change-password";
import { createUser } from "./create-user";
import { StaffInputError } from "./errors";
import { loadStaff } from "./load-staff";
import { resetPassword } from "./password-reset";
import { requestResetToken, testResetPage } from "./testing/reset-token";
import { endStaffSession, endUserSessions, newDeviceId, openStaffSession } from "./staff-sessions";

let counter = 0;
const ip = () => `198.51.100.${++counter}`;

async function newOwner() {
  const { business } = await createTestBusiness();
  const email = `${uniqueName("sessions")}@example.com`;
  const { userId } = await createUser(testDb(), { email, password: "the first password", businessId: business.id, role: "owner" });
  return { userId, email, businessId: business.id };
}

const open = (userId: string, deviceId: string | null = newDeviceId()) =>
  openStaffSession(testDb(), { userId, deviceId, ip: "203.0.113.9", userAgent: "Test browser" });

const signedIn = async (userId: string, sessionId: string) => (await loadStaff(testDb(), { userId, sessionId })) !== null;

async function newSignInMails(email: string) {
  return testDb().select().from(mailMessages).where(and(eq(mailMessages.toAddress, email), eq(mailMessages.kind, "new_sign_in")));
}

describe("sessions that end on the server (decision 0044)", () => {
  it("sign-out ends that session only; a copy of its cookie is refused too", async () => {
    const { userId } = await newOwner();
    const laptop = await open(userId);
    const phone = await open(userId);
    expect(await signedIn(userId, laptop.sessionId)).toBe(true);
    await endStaffSession(testDb(), laptop.sessionId);
    expect(await signedIn(userId, laptop.sessionId)).toBe(false);
    expect(await signedIn(userId, phone.sessionId)).toBe(true);
    // A made-up or another user's session id does not stand either.
    expect(await signedIn(userId, "ses_unknown")).toBe(false);
    const other = await newOwner();
    expect(await signedIn(other.userId, phone.sessionId)).toBe(false);
  });

  it("sign out everywhere ends every session, or every other one", async () => {
    const { userId } = await newOwner();
    const [a, b, c] = [await open(userId), await open(userId), await open(userId)];
    expect(await endUserSessions(testDb(), userId, a.sessionId)).toBe(2);
    expect([await signedIn(userId, a.sessionId), await signedIn(userId, b.sessionId), await signedIn(userId, c.sessionId)]).toEqual([true, false, false]);
    await endUserSessions(testDb(), userId);
    expect(await signedIn(userId, a.sessionId)).toBe(false);
  });

  it("a password change ends the other sessions and keeps the one asking; a wrong current password changes nothing", async () => {
    const { userId, email } = await newOwner();
    const here = await open(userId);
    const there = await open(userId);
    await expect(
      changePassword(testDb(), { userId, currentPassword: "not the password", newPassword: "the second password", keepSessionId: here.sessionId, ip: ip() }),
    ).rejects.toBeInstanceOf(StaffInputError);
    await expect(
      changePassword(testDb(), { userId, currentPassword: "the first password", newPassword: "short", keepSessionId: here.sessionId, ip: ip() }),
    ).rejects.toThrow("at least 10 characters");
    expect(await signedIn(userId, there.sessionId)).toBe(true);
    expect(await authenticate(testDb(), { email, password: "the first password", ip: ip() })).toMatchObject({ ok: true });

    const changed = await changePassword(testDb(), { userId, currentPassword: "the first password", newPassword: "the second password", keepSessionId: here.sessionId, ip: ip() });
    expect(changed.sessionsEnded).toBe(1);
    expect(await signedIn(userId, here.sessionId)).toBe(true);
    expect(await signedIn(userId, there.sessionId)).toBe(false);
    expect(await authenticate(testDb(), { email, password: "the second password", ip: ip() })).toMatchObject({ ok: true });
  });

  it("a password reset ends every session", async () => {
    const { userId, email } = await newOwner();
    const session = await open(userId);
    const token = await requestResetToken(testDb(), { email, ip: ip() });
    const [mail] = await testDb().select().from(mailMessages).where(and(eq(mailMessages.toAddress, email), eq(mailMessages.kind, "password_reset")));
    expect(mail!.textBody).toContain(`${testResetPage}?token=${token}`);
    await resetPassword(testDb(), { token: token!, password: "a brand new password" });
    expect(await signedIn(userId, session.sessionId)).toBe(false);
  });

  it("e-mails a new sign-in from a device the user never used, not the first sign-in nor a known device", async () => {
    const { userId, email } = await newOwner();
    const laptop = newDeviceId();
    expect((await open(userId, laptop)).newDevice).toBe(false); // the account's first sign-in
    expect((await open(userId, laptop)).newDevice).toBe(false);
    expect(await newSignInMails(email)).toEqual([]);
    expect((await open(userId, newDeviceId())).newDevice).toBe(true);
    const mails = await newSignInMails(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toContain("203.0.113.9");
    expect(mails[0]!.textBody).toContain("Test browser");
    // No device cookie at all counts as a new device.
    expect((await open(userId, null)).newDevice).toBe(true);
  });
});
