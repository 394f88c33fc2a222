import { eq } from "drizzle-orm";
import type * as Argon2 from "@node-rs/argon2";
import { describe, expect, it, vi } from "vitest";
import { users } from "@/db/schema";
import { createTestBusiness, testDb, uniqueName, withTestEnv } from "@/test/helpers";
import { authenticate } from "./authenticate";
import { createUser } from "./create-user";
import { LoginRateLimitedError } from "./errors";

// Records each password verification without changing it: the only stand-in in this file.
// Files share a worker's modules (vitest.config.ts): a fresh graph lets the stand-in reach them.
vi.hoisted(() => vi.resetModules());
const verifications = vi.hoisted(() => ({ seen: [] as { params: string; length: number }[] }));
vi.mock("@node-rs/argon2", async (importOriginal) => {
  const actual = await importOriginal<typeof Argon2>();
  return {
    ...actual,
    verify: (hashed: string, password: string, ...rest: unknown[]) => {
      verifications.seen.push({ params: hashed.split("$").slice(0, 4).join("$"), length: password.length });
      return (actual.verify as (...args: unknown[]) => Promise<boolean>)(hashed, password, ...rest);
    },
  };
});

/** The verifications one sign-in ran: which parameters, over how long an input. */
async function workOf(attempt: Promise<unknown>) {
  verifications.seen.length = 0;
  await attempt;
  return [...verifications.seen];
}

withTestEnv({ RATE_LIMIT_LOGIN_EMAIL: "3", RATE_LIMIT_LOGIN_IP: "5", RATE_LIMIT_LOGIN_WINDOW_SECONDS: "600" });

const password = "a long password";
let counter = 0;
function nextIp(): string {
  counter += 1;
  return `198.51.100.${counter}`;
}

async function newUser(options: { business?: boolean } = {}) {
  const business = await createTestBusiness();
  const email = `${uniqueName("staff")}@Example.com`;
  if (options.business === false) {
    const created = await createUser(testDb(), { email, password, role: "admin" });
    await testDb().update(users).set({ isAdmin: false }).where(eq(users.id, created.userId));
    return { email, userId: created.userId };
  }
  const created = await createUser(testDb(), { email, password, businessId: business.business.id, role: "manager" });
  return { email, userId: created.userId };
}

async function rejection(promise: Promise<unknown>): Promise<LoginRateLimitedError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LoginRateLimitedError);
  return error as LoginRateLimitedError;
}

describe("staff sign-in", () => {
  it("accepts the right password in any case of the e-mail, and refuses wrong, unknown and disabled alike", async () => {
    const { email, userId } = await newUser();
    const ip = nextIp();
    expect(await authenticate(testDb(), { email: email.toUpperCase(), password, ip })).toEqual({ ok: true, userId, email: email.toLowerCase() });
    expect(await authenticate(testDb(), { email, password: "wrong password", ip })).toEqual({ ok: false, reason: "invalid" });
    expect(await authenticate(testDb(), { email: "nobody@example.com", password, ip })).toEqual({ ok: false, reason: "invalid" });
    expect(await authenticate(testDb(), { email: "not an e-mail", password, ip })).toEqual({ ok: false, reason: "invalid" });
    await testDb().update(users).set({ disabledAt: new Date().toISOString() }).where(eq(users.id, userId));
    expect(await authenticate(testDb(), { email, password, ip: nextIp() })).toEqual({ ok: false, reason: "invalid" });
  });

  it("says so when the password is right but the user belongs to no business", async () => {
    const { email } = await newUser({ business: false });
    expect(await authenticate(testDb(), { email, password, ip: nextIp() })).toEqual({ ok: false, reason: "no_business" });
  });

  it("limits failed attempts per e-mail, whatever the address; the right password then waits too", async () => {
    const { email } = await newUser();
    for (let i = 0; i < 3; i++)
      expect(await authenticate(testDb(), { email, password: `wrong ${i} password`, ip: nextIp() })).toMatchObject({ ok: false });
    const limited = await rejection(authenticate(testDb(), { email, password, ip: nextIp() }));
    expect(limited.limitedKey).toBe("email");
    expect(limited.retryAfterSeconds).toBeGreaterThan(0);
    expect(limited.retryAfterSeconds).toBeLessThanOrEqual(600);
    // Another user is not affected.
    const other = await newUser();
    expect(await authenticate(testDb(), { email: other.email, password, ip: nextIp() })).toMatchObject({ ok: true });
  });

  it("limits failed attempts per client address across e-mails", async () => {
    const ip = nextIp();
    for (let i = 0; i < 5; i++)
      expect(await authenticate(testDb(), { email: `guess${i}-${uniqueName()}@example.com`, password, ip })).toMatchObject({ ok: false });
    const { email } = await newUser();
    expect((await rejection(authenticate(testDb(), { email, password, ip }))).limitedKey).toBe("ip");
    expect(await authenticate(testDb(), { email, password, ip: nextIp() })).toMatchObject({ ok: true });
  });

  it("does not count successful sign-ins", async () => {
    const { email } = await newUser();
    const ip = nextIp();
    for (let i = 0; i < 8; i++) expect(await authenticate(testDb(), { email, password, ip })).toMatchObject({ ok: true });
  });

  it("holds the limit under parallel guesses", async () => {
    const { email } = await newUser();
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => authenticate(testDb(), { email, password: `parallel ${i} guess`, ip: nextIp() })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    expect(results.filter((r) => r.status === "rejected" && r.reason instanceof LoginRateLimitedError)).toHaveLength(5);
  });

  it("does the same work whether the account exists or not, whatever the password's length", async () => {
    for (const guess of ["wrong password", "z".repeat(256), "z".repeat(257), "z".repeat(5_000)]) {
      // Fresh accounts for each guess: the per-e-mail limit stays out of the way.
      const known = await newUser();
      const disabled = await newUser();
      await testDb().update(users).set({ disabledAt: new Date().toISOString() }).where(eq(users.id, disabled.userId));
      const unknown = `${uniqueName("nobody")}@example.com`;
      const work: Record<string, Awaited<ReturnType<typeof workOf>>> = {};
      for (const [who, email] of Object.entries({ known: known.email, disabled: disabled.email, unknown }))
        work[who] = await workOf(authenticate(testDb(), { email, password: guess, ip: nextIp() }));
      // One verification each, of the same parameters and input length: nothing tells them apart.
      expect(work.known, `${guess.length} characters`).toHaveLength(1);
      expect(work.unknown, `${guess.length} characters`).toEqual(work.known);
      expect(work.disabled, `${guess.length} characters`).toEqual(work.known);
    }
  });
});
