import { and, eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { auditEvents, emailChangeTokens, mailMessages, users } from "@/db/schema";
import { sha256Hex } from "@/lib/crypto";
import { createTestBusiness, testDb, uniqueName, withTestEnv } from "@/test/helpers";
import { authenticate } from "./authenticate";
import { EmailTakenError, InvalidEmailChangeTokenError, confirmEmailChange, findEmailChange } from "./confirm-email-change";
import { createUser } from "./create-user";
import { LoginRateLimitedError, StaffInputError } from "./errors";
import { confirmTwoFactor, enrollTwoFactor } from "./manage-two-factor";
import { emailChangeLifetimeMs, requestEmailChange } from "./request-email-change";
import { openStaffSession, staffSessionOpen } from "./staff-sessions";

withTestEnv({ RATE_LIMIT_LOGIN_EMAIL: "4", RATE_LIMIT_LOGIN_IP: "50", RATE_LIMIT_LOGIN_WINDOW_SECONDS: "600" });

const password = "the account password";
let counter = 0;
const ip = () => `198.51.100.${++counter}`;
const fresh = (prefix: string) => `${uniqueName(prefix)}@example.com`;

async function newMember() {
  const { business } = await createTestBusiness();
  const email = fresh("emc");
  const { userId } = await createUser(testDb(), { email, password, businessId: business.id, role: "manager" });
  return { userId, email, businessId: business.id };
}

const mailTo = (to: string) => testDb().select().from(mailMessages).where(eq(mailMessages.toAddress, to));
const emailOf = async (userId: string) => (await testDb().select({ email: users.email }).from(users).where(eq(users.id, userId)))[0]!.email;

async function refusedWith<E>(promise: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}

describe("changing the sign-in e-mail", () => {
  it("sends the link to the new address and a notice without link to the old one; nothing changes yet", async () => {
    const m = await newMember();
    const newEmail = fresh("emc-new");
    const before = Date.now();
    const { token, expiresAt } = await requestEmailChange(testDb(), { userId: m.userId, newEmail: `  ${newEmail.toUpperCase()} `, currentPassword: password, ip: ip() });
    const after = Date.now();
    expect(token).toMatch(/^[0-9A-Za-z]{43}$/);
    // The lifetime from the request's moment, however long the call took on a busy machine.
    expect(Date.parse(expiresAt)).toBeGreaterThanOrEqual(before + emailChangeLifetimeMs);
    expect(Date.parse(expiresAt)).toBeLessThanOrEqual(after + emailChangeLifetimeMs);

    const toNew = await mailTo(newEmail);
    expect(toNew).toHaveLength(1);
    expect(toNew[0]!.kind).toBe("email_change");
    expect(toNew[0]!.textBody).toContain(`/dashboard/confirm-email?token=${token}`);
    const notices = (await mailTo(m.email)).filter((mail) => mail.kind === "email_change_notice");
    expect(notices).toHaveLength(1);
    expect(notices[0]!.textBody).toContain(newEmail);
    expect(notices[0]!.textBody).not.toContain(token);
    expect(notices[0]!.textBody).not.toContain("confirm-email");

    const [stored] = await testDb().select().from(emailChangeTokens).where(eq(emailChangeTokens.userId, m.userId));
    expect(stored!.digest).toBe(sha256Hex(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(await emailOf(m.userId)).toBe(m.email);
  });

  it("refuses a wrong password (counted against the sign-in limit), a bad address and a taken one", async () => {
    const m = await newMember();
    const other = await newMember();
    const from = ip();
    for (let i = 0; i < 4; i++)
      await refusedWith(requestEmailChange(testDb(), { userId: m.userId, newEmail: fresh("emc-x"), currentPassword: "not the password", ip: from }), StaffInputError);
    // The fifth try is refused by the limit, even with the right password.
    await refusedWith(requestEmailChange(testDb(), { userId: m.userId, newEmail: fresh("emc-x"), currentPassword: password, ip: from }), LoginRateLimitedError);

    const n = await newMember();
    await refusedWith(requestEmailChange(testDb(), { userId: n.userId, newEmail: "not an e-mail", currentPassword: password, ip: ip() }), StaffInputError);
    const taken = await refusedWith(requestEmailChange(testDb(), { userId: n.userId, newEmail: other.email.toUpperCase(), currentPassword: password, ip: ip() }), StaffInputError);
    expect(taken.message).toMatch(/another Kassa account/);
    await refusedWith(requestEmailChange(testDb(), { userId: n.userId, newEmail: n.email, currentPassword: password, ip: ip() }), StaffInputError);
    expect(await testDb().select().from(emailChangeTokens).where(eq(emailChangeTokens.userId, n.userId))).toHaveLength(0);
    expect((await mailTo(other.email)).filter((mail) => mail.kind === "email_change")).toHaveLength(0);
  });

  it("asks for a code when two-factor sign-in is on", async () => {
    const m = await newMember();
    const { secret } = await enrollTwoFactor(testDb(), { userId: m.userId });
    const codeAt = (timestamp: number) => new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp });
    const t0 = Date.UTC(2026, 10, 26, 12, 0, 0);
    await confirmTwoFactor(testDb(), { userId: m.userId, code: codeAt(t0), ip: ip(), now: t0 });
    const newEmail = fresh("emc-2fa");
    const now = new Date(t0 + 30_000);
    await refusedWith(requestEmailChange(testDb(), { userId: m.userId, newEmail, currentPassword: password, ip: ip(), now }), StaffInputError);
    await refusedWith(requestEmailChange(testDb(), { userId: m.userId, newEmail, currentPassword: password, code: "000000", ip: ip(), now }), StaffInputError);
    const { token } = await requestEmailChange(testDb(), { userId: m.userId, newEmail, currentPassword: password, code: codeAt(now.getTime()), ip: ip(), now });
    expect(token).toMatch(/^[0-9A-Za-z]{43}$/);
  });

  it("confirms once: the e-mail changes, other sessions end, the event is recorded, the old e-mail no longer signs in", async () => {
    const m = await newMember();
    const here = await openStaffSession(testDb(), { userId: m.userId, deviceId: null, ip: null, userAgent: null });
    const elsewhere = await openStaffSession(testDb(), { userId: m.userId, deviceId: null, ip: null, userAgent: null });
    const newEmail = fresh("emc-ok");
    const { token } = await requestEmailChange(testDb(), { userId: m.userId, newEmail, currentPassword: password, ip: ip() });

    expect(await findEmailChange(testDb(), token)).toMatchObject({ newEmail });
    const done = await confirmEmailChange(testDb(), { token, keepSessionId: here.sessionId, client: { ip: "203.0.113.9", userAgent: "test" } });
    expect(done).toMatchObject({ userId: m.userId, email: newEmail });
    expect(await emailOf(m.userId)).toBe(newEmail);
    expect(await staffSessionOpen(testDb(), m.userId, here.sessionId)).toBe(true);
    expect(await staffSessionOpen(testDb(), m.userId, elsewhere.sessionId)).toBe(false);
    expect(await authenticate(testDb(), { email: newEmail, password, ip: ip() })).toMatchObject({ ok: true });
    expect(await authenticate(testDb(), { email: m.email, password, ip: ip() })).toMatchObject({ ok: false });

    const [event] = await testDb()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.businessId, m.businessId), eq(auditEvents.action, "member.email_change")));
    expect(event).toMatchObject({ targetId: m.userId, actorUserId: m.userId, ip: "203.0.113.9" });
    expect(event!.changes).toEqual({ email: { from: m.email, to: newEmail } });

    await refusedWith(confirmEmailChange(testDb(), { token }), InvalidEmailChangeTokenError);
    expect(await findEmailChange(testDb(), token)).toBeNull();
    expect(await emailOf(m.userId)).toBe(newEmail);
  });

  it("refuses an expired, an unknown and a superseded link, changing nothing", async () => {
    const m = await newMember();
    const issued = new Date(Date.now() - emailChangeLifetimeMs - 1000);
    const expired = await requestEmailChange(testDb(), { userId: m.userId, newEmail: fresh("emc-old"), currentPassword: password, ip: ip(), now: issued });
    expect(await findEmailChange(testDb(), expired.token)).toBeNull();
    await refusedWith(confirmEmailChange(testDb(), { token: expired.token }), InvalidEmailChangeTokenError);
    await refusedWith(confirmEmailChange(testDb(), { token: "x".repeat(43) }), InvalidEmailChangeTokenError);
    await refusedWith(confirmEmailChange(testDb(), { token: "../../etc" }), InvalidEmailChangeTokenError);
    const first = await requestEmailChange(testDb(), { userId: m.userId, newEmail: fresh("emc-a"), currentPassword: password, ip: ip() });
    const secondEmail = fresh("emc-b");
    const second = await requestEmailChange(testDb(), { userId: m.userId, newEmail: secondEmail, currentPassword: password, ip: ip() });
    await refusedWith(confirmEmailChange(testDb(), { token: first.token }), InvalidEmailChangeTokenError);
    expect(await emailOf(m.userId)).toBe(m.email);
    await confirmEmailChange(testDb(), { token: second.token });
    expect(await emailOf(m.userId)).toBe(secondEmail);
  });

  it("refuses, changing nothing, when another account took the address after the link was sent", async () => {
    const m = await newMember();
    const wanted = fresh("emc-race");
    const { token } = await requestEmailChange(testDb(), { userId: m.userId, newEmail: wanted, currentPassword: password, ip: ip() });
    const { business } = await createTestBusiness();
    await createUser(testDb(), { email: wanted, password, businessId: business.id, role: "manager" });
    const error = await refusedWith(confirmEmailChange(testDb(), { token }), EmailTakenError);
    expect(error.message).toContain(wanted);
    expect(await emailOf(m.userId)).toBe(m.email);
  });

  it("two parallel confirmations of one link pass once", async () => {
    const m = await newMember();
    const newEmail = fresh("emc-par");
    const { token } = await requestEmailChange(testDb(), { userId: m.userId, newEmail, currentPassword: password, ip: ip() });
    const results = await Promise.allSettled([confirmEmailChange(testDb(), { token }), confirmEmailChange(testDb(), { token })]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected");
    expect(rejected?.status === "rejected" && rejected.reason).toBeInstanceOf(InvalidEmailChangeTokenError);
    expect(await emailOf(m.userId)).toBe(newEmail);
    const audit = await testDb()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.businessId, m.businessId), eq(auditEvents.action, "member.email_change")));
    expect(audit).toHaveLength(1);
  });

  it("two accounts confirming the same new address at once: one gets it, the other a clear refusal", async () => {
    const a = await newMember();
    const b = await newMember();
    const wanted = fresh("emc-both");
    const ta = await requestEmailChange(testDb(), { userId: a.userId, newEmail: wanted, currentPassword: password, ip: ip() });
    const tb = await requestEmailChange(testDb(), { userId: b.userId, newEmail: wanted, currentPassword: password, ip: ip() });
    const results = await Promise.allSettled([confirmEmailChange(testDb(), { token: ta.token }), confirmEmailChange(testDb(), { token: tb.token })]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected");
    expect(rejected?.status === "rejected" && rejected.reason).toBeInstanceOf(EmailTakenError);
    const emails = [await emailOf(a.userId), await emailOf(b.userId)];
    expect(emails.filter((e) => e === wanted)).toHaveLength(1);
    // The loser keeps the address it had.
    expect(emails).toContain(emails[0] === wanted ? b.email : a.email);
  });
});
