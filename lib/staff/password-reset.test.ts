import { count, eq, inArray } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { jobs, mailMessages, passwordResetTokens, rateLimits, users } from "@/db/schema";
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
import { requestResetToken, testResetPage } from "./testing/reset-token";

const linkFor = (token: string) => `${testResetPage}?token=${token}`;
let counter = 0;
const ip = () => `192.0.2.${++counter}`;

async function newUser() {
  const business = await createTestBusiness();
  const email = `${uniqueName("reset")}@example.com`;
  const { userId } = await createUser(testDb(), { email, password: "the old password", businessId: business.business.id, role: "owner" });
  return { email, userId };
}

describe("password reset", () => {
  it("does the same work for a known and an unknown e-mail before answering: one job, nothing else (the job does the rest)", async () => {
    const { email } = await newUser();
    const tables = { jobs, passwordResetTokens, mailMessages, rateLimits };
    const counts = async () =>
      Object.fromEntries(
        await Promise.all(Object.entries(tables).map(async ([name, table]) => [name, (await testDb().select({ n: count() }).from(table))[0]!.n] as const)),
      );
    const lines: unknown[][] = [];
    const spies = (["debug", "info", "warn", "error"] as const).map((level) =>
      vi.spyOn(log, level).mockImplementation((...args: unknown[]) => void lines.push([level, args[0]])),
    );
    const request = async (address: string) => {
      lines.length = 0;
      const before = await counts();
      const answer = await requestPasswordReset(testDb(), { email: address, ip: ip(), pageUrl: testResetPage });
      const after = await counts();
      const [job] = await testDb().select().from(jobs).where(eq(jobs.id, answer.jobId));
      return {
        answer: Object.keys(answer),
        written: Object.fromEntries(Object.keys(after).map((name) => [name, after[name]! - before[name]!])),
        job: { kind: job!.kind, businessId: job!.businessId, status: job!.status, payload: Object.keys(job!.payload).sort() },
        logged: [...lines],
        jobId: answer.jobId,
      };
    };
    try {
      const known = await request(email);
      const unknown = await request(`${uniqueName("nobody")}@example.com`);
      const { jobId: knownJob, ...knownWork } = known;
      const { jobId: unknownJob, ...unknownWork } = unknown;
      expect(knownWork).toEqual(unknownWork);
      expect(knownWork.written).toEqual({ jobs: 1, passwordResetTokens: 0, mailMessages: 0, rateLimits: 2 });
      expect(knownWork.job).toMatchObject({ kind: "start_password_reset", businessId: null, status: "pending" });

      // The job, after the answer, finds the user (or not) and writes the token and its e-mail.
      const jobsOf = (ids: string[]) => testDb().select().from(jobs).where(inArray(jobs.id, ids));
      const { runJobById } = await import("@/lib/jobs/run-job");
      const { defaultJobContext } = await import("@/lib/job-context");
      const before = await counts();
      await runJobById(testDb(), unknownJob, defaultJobContext());
      const afterUnknown = await counts();
      expect([afterUnknown.passwordResetTokens, afterUnknown.mailMessages]).toEqual([before.passwordResetTokens, before.mailMessages]);
      await runJobById(testDb(), knownJob, defaultJobContext());
      const afterKnown = await counts();
      expect([afterKnown.passwordResetTokens, afterKnown.mailMessages]).toEqual([before.passwordResetTokens! + 1, before.mailMessages! + 1]);
      expect((await jobsOf([knownJob, unknownJob])).map((j) => j.status)).toEqual(["done", "done"]);
      // Run again (a lease that ran out), the job writes no second token nor e-mail.
      await testDb().update(jobs).set({ status: "pending" }).where(eq(jobs.id, knownJob));
      await runJobById(testDb(), knownJob, defaultJobContext());
      expect(await counts()).toMatchObject({ passwordResetTokens: afterKnown.passwordResetTokens, mailMessages: afterKnown.mailMessages });
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("stores only the token's digest, answers the same for unknown e-mails, and works once", async () => {
    const { email, userId } = await newUser();
    expect(await requestResetToken(testDb(), { email: "nobody@example.com", ip: ip() })).toBeNull();
    const token = await requestResetToken(testDb(), { email: email.toUpperCase(), ip: ip() });
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
    const expired = await requestResetToken(testDb(), { email, ip: ip(), now: issued });
    await expect(resetPassword(testDb(), { token: expired!, password: "the new password" })).rejects.toBeInstanceOf(InvalidResetTokenError);
    await expect(resetPassword(testDb(), { token: "x".repeat(43), password: "the new password" })).rejects.toBeInstanceOf(InvalidResetTokenError);
    await expect(resetPassword(testDb(), { token: "../../etc", password: "the new password" })).rejects.toBeInstanceOf(InvalidResetTokenError);
    const fresh = await requestResetToken(testDb(), { email, ip: ip() });
    await expect(resetPassword(testDb(), { token: fresh!, password: "short" })).rejects.toBeInstanceOf(StaffInputError);
    const [after] = await testDb().select().from(users).where(eq(users.id, userId));
    expect(after!.passwordHash).toBe(before!.passwordHash);
    // The weak password did not spend the fresh token.
    expect(await resetPassword(testDb(), { token: fresh!, password: "the new password" })).toEqual({ userId });
  });

  it("spends every other open token of the user, and two parallel uses of one token pass once", async () => {
    const { email } = await newUser();
    const first = await requestResetToken(testDb(), { email, ip: ip() });
    const second = await requestResetToken(testDb(), { email, ip: ip() });
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

      const devToken = await requestResetToken(testDb(), { email, ip: ip() });
      expect(urls()).toEqual([linkFor(devToken!)]);

      (process.env as Record<string, string>).NODE_ENV = "production";
      resetEnv();
      lines.length = 0;
      await requestResetToken(testDb(), { email, ip: ip() });
      expect(urls()).toEqual([]);
      expect(JSON.stringify(lines)).toContain("not shown in production logs");
      const demoToken = await requestResetToken(testDb(), { email: demo.email, ip: ip() });
      expect(urls()).toEqual([linkFor(demoToken!)]);
    } finally {
      (process.env as Record<string, string | undefined>).NODE_ENV = previous;
      resetEnv();
      spy.mockRestore();
    }
  });
});
