import { and, eq } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { auditEvents, businesses, mailMessages, staffRecoveryCodes, staffTwoFactor, users } from "@/db/schema";
import { withAuditActor } from "@/lib/audit/audit-actor";
import { createTestBusiness, testDb, uniqueName, withTestEnv } from "@/test/helpers";
import { createUser } from "./create-user";
import { LoginRateLimitedError, StaffInputError } from "./errors";
import {
  confirmTwoFactor,
  disableTwoFactor,
  enrollTwoFactor,
  mustSetUpTwoFactor,
  regenerateRecoveryCodes,
  resetTwoFactor,
  setBusinessRequiresTwoFactor,
} from "./manage-two-factor";
import { issueSignInTicket, readSignInTicket } from "./sign-in-ticket";
import { openStaffSession, staffSessionOpen } from "./staff-sessions";
import { recoveryCodeDigest, twoFactorEnabled, verifySecondFactor } from "./two-factor";

withTestEnv({ RATE_LIMIT_LOGIN_EMAIL: "4", RATE_LIMIT_LOGIN_IP: "50", RATE_LIMIT_LOGIN_WINDOW_SECONDS: "600" });

const password = "a long password";
/** A fixed instant (on a step boundary) the codes are computed for. */
const t0 = Date.UTC(2026, 10, 26, 12, 0, 0);
const step = 30_000;

function codeAt(secret: string, timestamp: number): string {
  return new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp });
}

async function newMember() {
  const { business } = await createTestBusiness();
  const email = `${uniqueName("tfa")}@example.com`;
  const { userId } = await createUser(testDb(), { email, password, businessId: business.id, role: "manager" });
  return { userId, email, businessId: business.id };
}

/** A member with two-factor on: its secret and recovery codes. */
async function enrolled(ip: string) {
  const member = await newMember();
  const { secret, uri, qrSvg } = await enrollTwoFactor(testDb(), { userId: member.userId });
  expect(uri).toContain(`secret=${secret}`);
  expect(qrSvg).toMatch(/^<svg/);
  const { recoveryCodes } = await confirmTwoFactor(testDb(), { userId: member.userId, code: codeAt(secret, t0), ip, now: t0 });
  return { ...member, secret, recoveryCodes };
}

async function refusedWith<E>(promise: Promise<unknown>, type: new (...args: never[]) => E): Promise<E> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}

describe("two-factor sign-in (TOTP)", () => {
  it("keeps the secret encrypted, is off until a code confirms it, then stores ten hashed recovery codes", async () => {
    const member = await newMember();
    const { secret } = await enrollTwoFactor(testDb(), { userId: member.userId });
    const [row] = await testDb().select().from(staffTwoFactor).where(eq(staffTwoFactor.userId, member.userId));
    expect(row!.secretEnc).not.toContain(secret);
    expect(row!.enabledAt).toBeNull();
    expect(await twoFactorEnabled(testDb(), member.userId)).toBe(false);

    await refusedWith(confirmTwoFactor(testDb(), { userId: member.userId, code: codeAt(secret, t0 - 5 * step), ip: "192.0.2.10", now: t0 }), StaffInputError);
    expect(await twoFactorEnabled(testDb(), member.userId)).toBe(false);

    const { recoveryCodes } = await confirmTwoFactor(testDb(), { userId: member.userId, code: codeAt(secret, t0), ip: "192.0.2.10", now: t0 });
    expect(await twoFactorEnabled(testDb(), member.userId)).toBe(true);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await testDb().select().from(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, member.userId));
    expect(stored.map((r) => r.digest).sort()).toEqual(recoveryCodes.map((c) => recoveryCodeDigest(member.userId, c)).sort());
    expect(stored.some((r) => recoveryCodes.some((c) => r.digest.includes(c.replace("-", ""))))).toBe(false);
  });

  it("accepts the code of this step and the next, and refuses a replayed or an older code", async () => {
    const m = await enrolled("192.0.2.11");
    // The confirmation used t0's code: it does not sign in again.
    expect(await verifySecondFactor(testDb(), { userId: m.userId, code: codeAt(m.secret, t0), ip: "192.0.2.11", now: t0 + 1000 })).toBe(false);
    const next = codeAt(m.secret, t0 + step);
    expect(await verifySecondFactor(testDb(), { userId: m.userId, code: next, ip: "192.0.2.11", now: t0 + step })).toBe(true);
    expect(await verifySecondFactor(testDb(), { userId: m.userId, code: next, ip: "192.0.2.11", now: t0 + step + 2000 })).toBe(false);
    // A code two steps old is outside the window; one step of drift is allowed.
    expect(await verifySecondFactor(testDb(), { userId: m.userId, code: codeAt(m.secret, t0 + 2 * step), ip: "192.0.2.11", now: t0 + 4 * step })).toBe(false);
    expect(await verifySecondFactor(testDb(), { userId: m.userId, code: codeAt(m.secret, t0 + 5 * step), ip: "192.0.2.11", now: t0 + 4 * step })).toBe(true);
  });

  it("takes each recovery code once, in any case and with or without its dash", async () => {
    const m = await enrolled("192.0.2.12");
    const [first, second] = m.recoveryCodes;
    expect(await verifySecondFactor(testDb(), { userId: m.userId, code: first!.toUpperCase(), ip: "192.0.2.12" })).toBe(true);
    expect(await verifySecondFactor(testDb(), { userId: m.userId, code: first!, ip: "192.0.2.12" })).toBe(false);
    expect(await verifySecondFactor(testDb(), { userId: m.userId, code: second!.replace("-", ""), ip: "192.0.2.12" })).toBe(true);
    expect(await verifySecondFactor(testDb(), { userId: m.userId, code: "aaaaa-bbbbb", ip: "192.0.2.12" })).toBe(false);
  });

  it("counts wrong codes against the sign-in rate limit of the e-mail", async () => {
    const m = await enrolled("192.0.2.13");
    for (let i = 0; i < 4; i++) expect(await verifySecondFactor(testDb(), { userId: m.userId, code: "000000", ip: `192.0.2.${100 + i}`, now: t0 + 3 * step })).toBe(false);
    const limited = await refusedWith(
      verifySecondFactor(testDb(), { userId: m.userId, code: codeAt(m.secret, t0 + 3 * step), ip: "192.0.2.120", now: t0 + 3 * step }),
      LoginRateLimitedError,
    );
    expect(limited.limitedKey).toBe("email");
  });

  it("turns off only with the password and a code; new recovery codes replace the old ones", async () => {
    const m = await enrolled("192.0.2.14");
    const { recoveryCodes } = await regenerateRecoveryCodes(testDb(), { userId: m.userId, code: codeAt(m.secret, t0 + step), ip: "192.0.2.14", now: t0 + step });
    expect(await verifySecondFactor(testDb(), { userId: m.userId, code: m.recoveryCodes[0]!, ip: "192.0.2.14" })).toBe(false);
    await refusedWith(disableTwoFactor(testDb(), { userId: m.userId, password: "wrong password!", code: recoveryCodes[0]!, ip: "192.0.2.14" }), StaffInputError);
    expect(await twoFactorEnabled(testDb(), m.userId)).toBe(true);
    await withAuditActor({ type: "user", userId: m.userId, email: m.email, ip: null, userAgent: null }, () =>
      disableTwoFactor(testDb(), { userId: m.userId, password, code: recoveryCodes[0]!, ip: "192.0.2.14" }),
    );
    expect(await twoFactorEnabled(testDb(), m.userId)).toBe(false);
    expect(await testDb().select().from(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, m.userId))).toEqual([]);
    const audit = await testDb().select().from(auditEvents).where(eq(auditEvents.businessId, m.businessId));
    expect(audit.map((a) => a.action)).toContain("member.two_factor_disable");
    const mail = await testDb().select().from(mailMessages).where(and(eq(mailMessages.toAddress, m.email), eq(mailMessages.kind, "two_factor_off")));
    expect(mail).toHaveLength(1);
  });

  it("a reset removes two-factor and ends the user's sessions at once", async () => {
    const m = await enrolled("192.0.2.15");
    const { sessionId } = await openStaffSession(testDb(), { userId: m.userId, deviceId: null, ip: null, userAgent: null });
    const result = await resetTwoFactor(testDb(), { userId: m.userId, businessId: m.businessId });
    expect(result).toMatchObject({ wasOn: true });
    expect(result.sessionsEnded).toBeGreaterThanOrEqual(1);
    expect(await staffSessionOpen(testDb(), m.userId, sessionId)).toBe(false);
    expect(await twoFactorEnabled(testDb(), m.userId)).toBe(false);
  });

  it("is required of admins and of the staff of a business that asks for it", async () => {
    const m = await newMember();
    expect(await mustSetUpTwoFactor(testDb(), { id: m.userId, isAdmin: false })).toBe(false);
    expect(await mustSetUpTwoFactor(testDb(), { id: m.userId, isAdmin: true })).toBe(true);
    await setBusinessRequiresTwoFactor(testDb(), { businessId: m.businessId, required: true });
    const [business] = await testDb().select().from(businesses).where(eq(businesses.id, m.businessId));
    expect(business!.requireTwoFactor).toBe(true);
    expect(await mustSetUpTwoFactor(testDb(), { id: m.userId, isAdmin: false })).toBe(true);
    const { secret } = await enrollTwoFactor(testDb(), { userId: m.userId });
    await confirmTwoFactor(testDb(), { userId: m.userId, code: codeAt(secret, t0), ip: "192.0.2.16", now: t0 });
    expect(await mustSetUpTwoFactor(testDb(), { id: m.userId, isAdmin: false })).toBe(false);
    const [user] = await testDb().select().from(users).where(eq(users.id, m.userId));
    expect(user!.email).toBe(m.email);
  });

  it("signs the ticket between the password and the code, and lets it expire", () => {
    const ticket = issueSignInTicket("usr_abc", t0);
    expect(readSignInTicket(ticket, t0 + 1000)).toEqual({ userId: "usr_abc", sessionId: expect.stringMatching(/^ses_/) });
    // Each ticket names a session row of its own (the row that spends it).
    expect(readSignInTicket(issueSignInTicket("usr_abc", t0), t0)!.sessionId).not.toBe(readSignInTicket(ticket, t0)!.sessionId);
    expect(readSignInTicket(ticket.replace(/\.ses_\w+\./, ".ses_01ANOTHERSESSIONID0000000000."), t0)).toBeNull();
    expect(readSignInTicket(ticket, t0 + 10 * 60_000)).toBeNull();
    expect(readSignInTicket(ticket.replace("usr_abc", "usr_abd"), t0)).toBeNull();
    expect(readSignInTicket(42, t0)).toBeNull();
  });
});
