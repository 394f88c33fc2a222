import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { createTestBusiness, testDb, uniqueName } from "@/test/helpers";
import { Secret, TOTP } from "otpauth";
import { eq } from "drizzle-orm";
import { staffSessions } from "@/db/schema";
import { createUser } from "./create-user";
import { confirmTwoFactor, enrollTwoFactor } from "./manage-two-factor";
import { issueSignInTicket } from "./sign-in-ticket";
import { handlers } from "./next-auth";
import { endStaffSession } from "./staff-sessions";

const origin = "http://localhost:3000";

function request(method: "GET" | "POST", path: string, options: { body?: Record<string, string>; cookie?: string } = {}) {
  const headers: Record<string, string> = { "x-kassa-client-ip": "203.0.113.77" };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.body) headers["content-type"] = "application/x-www-form-urlencoded";
  const req = new NextRequest(`${origin}${path}`, { method, headers, body: options.body ? new URLSearchParams(options.body).toString() : undefined });
  return method === "GET" ? handlers.GET(req) : handlers.POST(req);
}

/** `name=value` of each Set-Cookie, joined for a Cookie header. */
function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

describe("Auth.js's own routes (/api/auth/*)", () => {
  it("refuse POSTs without Auth.js's CSRF token, and sign in with it", async () => {
    const business = await createTestBusiness();
    const email = `${uniqueName("authjs")}@example.com`;
    await createUser(testDb(), { email, password: "a long password", businessId: business.business.id, role: "owner" });
    const credentials = { email, password: "a long password", callbackUrl: `${origin}/dashboard` };

    const forged = await request("POST", "/api/auth/callback/credentials", { body: credentials });
    expect(forged.status).toBe(302);
    expect(forged.headers.get("location")).toBe(`${origin}/dashboard/sign-in?error=MissingCSRF`);
    expect(cookiesOf(forged)).not.toContain("authjs.session-token");

    const csrf = await request("GET", "/api/auth/csrf");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const signedIn = await request("POST", "/api/auth/callback/credentials", {
      body: { ...credentials, csrfToken },
      cookie: cookiesOf(csrf),
    });
    expect(signedIn.headers.get("location")).toBe(`${origin}/dashboard`);
    const session = signedIn.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token="));
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).not.toMatch(/Secure/i); // ORIGIN is http here; https makes it Secure and __Secure- prefixed

    const read = await request("GET", "/api/auth/session", { cookie: session!.split(";")[0] });
    expect(await read.json()).toMatchObject({ user: { email } });

    const wrong = await request("POST", "/api/auth/callback/credentials", {
      body: { ...credentials, password: "not the password", csrfToken },
      cookie: cookiesOf(csrf),
    });
    expect(wrong.headers.get("location")).toBe(`${origin}/dashboard/sign-in?error=CredentialsSignin&code=invalid`);
    expect(cookiesOf(wrong)).not.toContain("authjs.session-token");
  });

  it("with two-factor on, the password alone opens no session; the ticket and a code do, once", async () => {
    const business = await createTestBusiness();
    const email = `${uniqueName("tfa")}@example.com`;
    const { userId } = await createUser(testDb(), { email, password: "a long password", businessId: business.business.id, role: "owner" });
    const { secret } = await enrollTwoFactor(testDb(), { userId });
    const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
    const step = Math.floor(Date.now() / 30_000);
    await confirmTwoFactor(testDb(), { userId, code: totp.generate({ timestamp: step * 30_000 }), ip: "203.0.113.78" });
    const csrf = await request("GET", "/api/auth/csrf");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const post = (body: Record<string, string>) =>
      request("POST", "/api/auth/callback/credentials", { body: { callbackUrl: `${origin}/dashboard`, csrfToken, ...body }, cookie: cookiesOf(csrf) });

    const passwordOnly = await post({ email, password: "a long password" });
    expect(passwordOnly.headers.get("location")).toBe(`${origin}/dashboard/sign-in?error=CredentialsSignin&code=two_factor`);
    expect(cookiesOf(passwordOnly)).not.toContain("authjs.session-token");

    const forged = await post({ ticket: `${userId}.9999999999.forged`, code: totp.generate({ timestamp: (step + 1) * 30_000 }) });
    expect(forged.headers.get("location")).toContain("code=ticket_expired");
    const ticket = issueSignInTicket(userId);
    const wrong = await post({ ticket, code: "000000" });
    expect(wrong.headers.get("location")).toContain("code=invalid_code");
    const code = totp.generate({ timestamp: (step + 1) * 30_000 });
    const signedIn = await post({ ticket, code });
    expect(signedIn.headers.get("location")).toBe(`${origin}/dashboard`);
    expect(cookiesOf(signedIn)).toContain("authjs.session-token");
    const replayed = await post({ ticket, code });
    expect(replayed.headers.get("location")).toContain("code=ticket_expired");
  });

  it("spend the ticket with the sign-in it opens: a fresh code cannot use it again, nor a parallel one", async () => {
    const business = await createTestBusiness();
    const email = `${uniqueName("tfa-once")}@example.com`;
    const { userId } = await createUser(testDb(), { email, password: "a long password", businessId: business.business.id, role: "owner" });
    const { secret } = await enrollTwoFactor(testDb(), { userId });
    const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
    const step = Math.floor(Date.now() / 30_000);
    const { recoveryCodes } = await confirmTwoFactor(testDb(), { userId, code: totp.generate({ timestamp: (step - 1) * 30_000 }), ip: "203.0.113.79" });
    const csrf = await request("GET", "/api/auth/csrf");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const post = (body: Record<string, string>) =>
      request("POST", "/api/auth/callback/credentials", { body: { callbackUrl: `${origin}/dashboard`, csrfToken, ...body }, cookie: cookiesOf(csrf) });
    const sessions = async () => (await testDb().select().from(staffSessions).where(eq(staffSessions.userId, userId))).length;

    const ticket = issueSignInTicket(userId);
    const signedIn = await post({ ticket, code: totp.generate({ timestamp: step * 30_000 }) });
    expect(cookiesOf(signedIn)).toContain("authjs.session-token");
    // A code the authenticator shows later (a new step), or a recovery code: the ticket is spent.
    const again = await post({ ticket, code: totp.generate({ timestamp: (step + 1) * 30_000 }) });
    expect(again.headers.get("location")).toContain("code=ticket_expired");
    expect(cookiesOf(again)).not.toContain("authjs.session-token");
    const recovery = await post({ ticket, code: recoveryCodes[0]! });
    expect(recovery.headers.get("location")).toContain("code=ticket_expired");
    expect(await sessions()).toBe(1);

    // Two uses of one new ticket at once, each with a valid code of its own: one session opens.
    const second = issueSignInTicket(userId);
    const both = await Promise.all([post({ ticket: second, code: recoveryCodes[1]! }), post({ ticket: second, code: recoveryCodes[2]! })]);
    expect(both.filter((r) => cookiesOf(r).includes("authjs.session-token"))).toHaveLength(1);
    expect(both.filter((r) => r.headers.get("location")?.includes("code=ticket_expired"))).toHaveLength(1);
    expect(await sessions()).toBe(2);
  });

  it("answer no session for a cookie whose session was signed out, by the dashboard or by Auth.js's own route", async () => {
    const business = await createTestBusiness();
    const email = `${uniqueName("signout")}@example.com`;
    const { userId } = await createUser(testDb(), { email, password: "a long password", businessId: business.business.id, role: "owner" });
    const csrf = await request("GET", "/api/auth/csrf");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const signIn = async () => {
      const response = await request("POST", "/api/auth/callback/credentials", {
        body: { email, password: "a long password", callbackUrl: `${origin}/dashboard`, csrfToken },
        cookie: cookiesOf(csrf),
      });
      return response.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token="))!.split(";")[0]!;
    };
    const sessionOf = async (cookie: string) => (await (await request("GET", "/api/auth/session", { cookie })).json()) as { user?: { email?: string } } | null;

    // The dashboard's sign-out ends the session's row (then clears the browser's cookie).
    const first = await signIn();
    expect(await sessionOf(first)).toMatchObject({ user: { email } });
    const [row] = await testDb().select().from(staffSessions).where(eq(staffSessions.userId, userId));
    await endStaffSession(testDb(), row!.id);
    expect(await sessionOf(first)).toBeNull();

    // Auth.js's own sign-out route ends it too: a copy of the cookie kept elsewhere is dead.
    const second = await signIn();
    expect(await sessionOf(second)).toMatchObject({ user: { email } });
    const signedOut = await request("POST", "/api/auth/signout", { body: { csrfToken }, cookie: `${cookiesOf(csrf)}; ${second}` });
    expect(signedOut.status).toBe(302);
    expect(await sessionOf(second)).toBeNull();
    // Other sessions of the user are not touched.
    const third = await signIn();
    expect(await sessionOf(third)).toMatchObject({ user: { email } });
  });

  it("make the cookies Secure and __Secure-/__Host- prefixed when ORIGIN is https", async () => {
    const previous = process.env.ORIGIN;
    process.env.ORIGIN = "https://pay.example.com";
    resetEnv();
    try {
      const business = await createTestBusiness();
      const email = `${uniqueName("https")}@example.com`;
      await createUser(testDb(), { email, password: "a long password", businessId: business.business.id, role: "manager" });
      const csrf = await request("GET", "/api/auth/csrf");
      expect(csrf.headers.getSetCookie().find((c) => c.startsWith("__Host-authjs.csrf-token="))).toMatch(/Secure/);
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const signedIn = await request("POST", "/api/auth/callback/credentials", {
        body: { email, password: "a long password", callbackUrl: `${origin}/dashboard`, csrfToken },
        cookie: cookiesOf(csrf),
      });
      const session = signedIn.headers.getSetCookie().find((c) => c.startsWith("__Secure-authjs.session-token="));
      expect(session).toMatch(/; Secure/i);
      expect(session).toMatch(/HttpOnly/i);
    } finally {
      if (previous === undefined) delete process.env.ORIGIN;
      else process.env.ORIGIN = previous;
      resetEnv();
    }
  });

  it("answer unknown and malformed paths with a 400, never a 500", async () => {
    for (const path of ["/api/auth/nonsense", "/api/auth/%E0%A4%A", "/api/auth/callback/nope"]) {
      const response = await request("GET", path);
      expect(response.status, path).toBeLessThan(500);
    }
  });

  it("build their own URLs and redirects on ORIGIN, not on the localhost address Next was told", async () => {
    const previous = process.env.ORIGIN;
    process.env.ORIGIN = "https://pay.example.com";
    resetEnv();
    try {
      const providers = await request("GET", "/api/auth/providers");
      expect(await providers.json()).toMatchObject({
        credentials: {
          signinUrl: "https://pay.example.com/api/auth/signin/credentials",
          callbackUrl: "https://pay.example.com/api/auth/callback/credentials",
        },
      });
      const forged = await request("POST", "/api/auth/callback/credentials", {
        body: { email: "nobody@example.com", password: "a long password" },
      });
      expect(forged.headers.get("location")).toBe("https://pay.example.com/dashboard/sign-in?error=MissingCSRF");
    } finally {
      if (previous === undefined) delete process.env.ORIGIN;
      else process.env.ORIGIN = previous;
      resetEnv();
    }
  });
});
