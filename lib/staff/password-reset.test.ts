import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { passwordResetTokens, users } from "@/db/schema";
import { sha256Hex } from "@/lib/crypto";
import { resetEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { createTestBusiness, testDb, uniqueName } from "@/test/helpers";
import { authenticate } from "./authenticate";
import { createUser } from "./create-user";
import { ensureDemoLogin } from "./demo-login";
import { StaffInputError } from "./errors";
import { loadStaff } from "./load-staff";
import { InvalidResetTokenError, requestPasswordReset, resetPassword, resetTokenLifetimeMs } from "./password-reset";

const linkFor = (token: string) => `http://kassa.test/dashboard/reset-password?token=${token}`;
let counter = 0;
const ip = () => `192.0.2.${++counter}`;

async function newUser() {
  const business = await createTestBusiness();
  const email = `${uniqueName("reset")}@example.com`;
  const { userId } = await createUser(testDb(), { email, password: "the old password", businessId: business.business.id, role: "owner" });
  return { email, userId };
}

describe("password reset", () => {
  it("stores only the token's digest, answers the same for unknown e-mails, and works once", async () => {
    const { email, userId } = await newUser();
    expect(await requestPasswordReset(testDb(), { email: "nobody@example.com", ip: ip(), linkFor })).toBeNull();
    const token = await requestPasswordReset(testDb(), { email: email.toUpperCase(), ip: ip(), linkFor });
    expect(token).toMatch(/^[0-9A-Za-z]{43}$/);
    const stored = await testDb().select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, userId));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.digest).toBe(sha256Hex(token!));
    expect(JSON.stringify(stored)).not.toContain(token!);

    const signedInBefore = Math.floor(Date.now() / 1000) - 1;
    expect(await resetPassword(testDb(), { token: token!, password: "the new password" })).toEqual({ userId });
    expect(await authenticate(testDb(), { email, password: "the new password", ip: ip() })).toMatchObject({ ok: true });
    expect(await authenticate(testDb(), { email, password: "the old password", ip: ip() })).toMatchObject({ ok: false });
    // Sessions from before the reset no longer stand.
    expect(await loadStaff(testDb(), { userId, signedInAt: signedInBefore })).toBeNull();

    await expect(resetPassword(testDb(), { token: token!, password: "a third password" })).rejects.toBeInstanceOf(InvalidResetTokenError);
    expect(await authenticate(testDb(), { email, password: "the new password", ip: ip() })).toMatchObject({ ok: true });
  });

  it("refuses an expired token, a made-up one and a weak password, changing nothing", async () => {
    const { email, userId } = await newUser();
    const [before] = await testDb().select().from(users).where(eq(users.id, userId));
    const issued = new Date(Date.now() - resetTokenLifetimeMs - 1000);
    const expired = await requestPasswordReset(testDb(), { email, ip: ip(), linkFor, now: issued });
    await expect(resetPassword(testDb(), { token: expired!, password: "the new password" })).rejects.toBeInstanceOf(InvalidResetTokenError);
    await expect(resetPassword(testDb(), { token: "x".repeat(43), password: "the new password" })).rejects.toBeInstanceOf(InvalidResetTokenError);
    await expect(resetPassword(testDb(), { token: "../../etc", password: "the new password" })).rejects.toBeInstanceOf(InvalidResetTokenError);
    const fresh = await requestPasswordReset(testDb(), { email, ip: ip(), linkFor });
    await expect(resetPassword(testDb(), { token: fresh!, password: "short" })).rejects.toBeInstanceOf(StaffInputError);
    const [after] = await testDb().select().from(users).where(eq(users.id, userId));
    expect(after!.passwordHash).toBe(before!.passwordHash);
    // The weak password did not spend the fresh token.
    expect(await resetPassword(testDb(), { token: fresh!, password: "the new password" })).toEqual({ userId });
  });

  it("spends every other open token of the user, and two parallel uses of one token pass once", async () => {
    const { email } = await newUser();
    const first = await requestPasswordReset(testDb(), { email, ip: ip(), linkFor });
    const second = await requestPasswordReset(testDb(), { email, ip: ip(), linkFor });
    const results = await Promise.allSettled([
      resetPassword(testDb(), { token: second!, password: "parallel one pass" }),
      resetPassword(testDb(), { token: second!, password: "parallel two pass" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    await expect(resetPassword(testDb(), { token: first!, password: "the new password" })).rejects.toBeInstanceOf(InvalidResetTokenError);
  });
});

describe("the reset link in the log", () => {
  it("is logged in development and for the demo login, and withheld in production for everyone else", async () => {
    const lines: unknown[][] = [];
    const spy = vi.spyOn(log, "info").mockImplementation((...args: unknown[]) => void lines.push(args));
    const previous = process.env.NODE_ENV;
    try {
      const { email } = await newUser();
      const demoBusiness = await createTestBusiness({ isDemo: true });
      const demo = await ensureDemoLogin(testDb(), demoBusiness.business.id);
      const urls = () => lines.map(([, fields]) => (fields as { url?: string } | undefined)?.url).filter(Boolean);

      const devToken = await requestPasswordReset(testDb(), { email, ip: ip(), linkFor });
      expect(urls()).toEqual([linkFor(devToken!)]);

      (process.env as Record<string, string>).NODE_ENV = "production";
      resetEnv();
      lines.length = 0;
      await requestPasswordReset(testDb(), { email, ip: ip(), linkFor });
      expect(urls()).toEqual([]);
      expect(JSON.stringify(lines)).toContain("not shown in production logs");
      const demoToken = await requestPasswordReset(testDb(), { email: demo.email, ip: ip(), linkFor });
      expect(urls()).toEqual([linkFor(demoToken!)]);
    } finally {
      (process.env as Record<string, string | undefined>).NODE_ENV = previous;
      resetEnv();
      spy.mockRestore();
    }
  });
});
