// Auth.js (next-auth v5) for the dashboard and the support console: e-mail and password, JWT
// sessions in an encrypted cookie (decision 0018). The only file here that knows about Next.
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { and, eq, isNull } from "drizzle-orm";
import { users } from "@/db/schema";
import { getDb } from "@/lib/db";
import { origin } from "@/lib/env";
import { clientIp } from "@/lib/http/client-ip";
import { log } from "@/lib/log";
import { authSecret } from "./auth-secret";
import { authenticate } from "./authenticate";
import { LoginRateLimitedError } from "./errors";
import { issueSignInTicket, readSignInTicket } from "./sign-in-ticket";
import { endStaffSession, openStaffSession, SessionAlreadyOpenedError, staffSessionExists, staffSessionOpen, validDeviceId } from "./staff-sessions";
import { twoFactorEnabled, verifySecondFactor } from "./two-factor";

/** A refused sign-in; `code` says why (the form shows one message per code). */
export class SignInRefused extends CredentialsSignin {
  constructor(
    code: "invalid" | "no_business" | "rate_limited" | "two_factor" | "invalid_code" | "ticket_expired",
    readonly retryAfterSeconds?: number,
    /** For `two_factor`: the ticket the code step hands back (sign-in-ticket.ts). */
    readonly ticket?: string,
  ) {
    super();
    this.code = code;
  }
}

/** A session stays valid this long without activity, and never longer than a day of use. */
const sessionMaxAgeSeconds = 12 * 60 * 60;

declare module "next-auth" {
  interface Session {
    /** Seconds since the epoch when this session signed in. */
    signedInAt: number;
    /** Its staff_sessions row, checked on every request (decision 0044); "" for a cookie without one. */
    sessionId: string;
  }
  interface User {
    sessionId?: string;
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    signedInAt?: number;
    sid?: string;
  }
}

export const signInPath = "/dashboard/sign-in";

type SignedIn = { userId: string; email: string; /** A two-factor ticket's session row. */ sessionId?: string };

/**
 * One step of a sign-in: the e-mail and password, or (with a ticket) the second factor. A user
 * with two-factor on is refused `two_factor` after the right password, with a ticket for the code
 * step; wrong codes count against the login rate limit like wrong passwords. A ticket whose
 * session was opened already is spent: refused before its code is looked at (and, for two uses at
 * once, by the session row's key in openStaffSession).
 */
async function passwordOrCode(credentials: Partial<Record<string, unknown>>, ip: string | null): Promise<SignedIn> {
  const db = await getDb();
  if (credentials.ticket !== undefined && credentials.ticket !== "") {
    const ticket = readSignInTicket(credentials.ticket);
    if (!ticket || (await staffSessionExists(db, ticket.sessionId))) throw new SignInRefused("ticket_expired");
    const { userId, sessionId } = ticket;
    const code = typeof credentials.code === "string" ? credentials.code.slice(0, 40) : "";
    if (!(await verifySecondFactor(db, { userId, code, ip }))) throw new SignInRefused("invalid_code");
    const [user] = await db.select({ email: users.email }).from(users).where(and(eq(users.id, userId), isNull(users.disabledAt)));
    if (!user) throw new SignInRefused("invalid");
    return { userId, email: user.email, sessionId };
  }
  const email = typeof credentials.email === "string" ? credentials.email : "";
  const password = typeof credentials.password === "string" ? credentials.password : "";
  const outcome = await authenticate(db, { email, password, ip });
  if (!outcome.ok) throw new SignInRefused(outcome.reason);
  if (await twoFactorEnabled(db, outcome.userId)) throw new SignInRefused("two_factor", undefined, issueSignInTicket(outcome.userId));
  return outcome;
}

/** Whether a session token read back from its cookie still has its open staff_sessions row. */
async function sessionStands(token: { sub?: string | null; sid?: string }): Promise<boolean> {
  if (typeof token.sub !== "string" || !token.sub || typeof token.sid !== "string" || !token.sid) return false;
  return staffSessionOpen(await getDb(), token.sub, token.sid);
}

/** Where Auth.js's routes are: next-auth reads AUTH_URL (after this config, per request) for its own URLs. */
const authPath = "/api/auth";

const authConfig = (): NextAuthConfig => ({
  // Read at request time, not at build time: the secret may come from DATA_DIR's key file.
  secret: authSecret(),
  // Kassa is its own server (server/main.ts); ORIGIN says how it is reached.
  trustHost: true,
  basePath: authPath,
  // Secure, __Secure-/__Host- prefixed cookies whenever Kassa is served over https.
  useSecureCookies: origin().startsWith("https:"),
  session: { strategy: "jwt", maxAge: sessionMaxAgeSeconds, updateAge: 60 * 60 },
  pages: { signIn: signInPath, error: signInPath },
  providers: [
    Credentials({
      credentials: {
        email: { label: "E-mail", type: "email" },
        password: { label: "Password", type: "password" },
        // The device cookie's value, handed in by the sign-in action (it sets the cookie).
        device: { type: "hidden" },
        // The second step of a two-factor sign-in (decision 0048): the ticket the password step
        // issued, and the code from the app or a recovery code.
        ticket: { type: "hidden" },
        code: { type: "text" },
      },
      authorize: async (credentials, request) => {
        try {
          const signedIn = await passwordOrCode(credentials, clientIp(request));
          const { sessionId } = await openStaffSession(await getDb(), {
            userId: signedIn.userId,
            sessionId: signedIn.sessionId,
            deviceId: validDeviceId(credentials.device),
            ip: clientIp(request),
            userAgent: request.headers.get("user-agent"),
          });
          return { id: signedIn.userId, email: signedIn.email, sessionId };
        } catch (error) {
          if (error instanceof LoginRateLimitedError) throw new SignInRefused("rate_limited", error.retryAfterSeconds);
          if (error instanceof SessionAlreadyOpenedError) throw new SignInRefused("ticket_expired");
          throw error;
        }
      },
    }),
  ],
  callbacks: {
    // The token carries the user id and when they signed in (kept across refreshes, unlike `iat`,
    // so a reset password ends older sessions); roles and businesses are read fresh per request.
    // A token read back stands only while its staff_sessions row is open (decision 0044): null
    // makes Auth.js answer no session (`/api/auth/session`, `auth()`) and clear the cookie.
    jwt: async ({ token, user }) => {
      if (user) return { sub: user.id, email: user.email, signedInAt: Math.floor(Date.now() / 1000), sid: user.sessionId };
      return (await sessionStands(token)) ? token : null;
    },
    session: ({ session, token }) => ({
      ...session,
      user: { ...session.user, id: token.sub ?? "" },
      signedInAt: typeof token.signedInAt === "number" ? token.signedInAt : 0,
      sessionId: typeof token.sid === "string" ? token.sid : "",
    }),
  },
  events: {
    // Auth.js's own sign-out route (`POST /api/auth/signout`) ends the row as the dashboard's does.
    signOut: async (message) => {
      const sid = "token" in message ? message.token?.sid : undefined;
      if (typeof sid === "string" && sid) await endStaffSession(await getDb(), sid);
    },
  },
  logger: {
    error: (error) => {
      if (error instanceof CredentialsSignin) return; // a refused sign-in is not a server error
      // Ours fail as CallbackRouteError (authorize threw) or a configuration error; the rest is what
      // clients send (no CSRF token, unknown path, a tampered cookie).
      const ours = ["CallbackRouteError", "Configuration"].includes((error as { type?: string }).type ?? "");
      if (ours) log.error("auth.js error", { error });
      else log.warn("auth.js refused a request", { error: error.message });
    },
    warn: (code) => log.warn("auth.js warning", { code }),
    debug: () => {},
  },
});

export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  // Next hands route handlers a URL on `localhost:PORT` (server/main.ts); ORIGIN says how Kassa is
  // reached, so Auth.js's redirects and URLs are built on it.
  process.env.AUTH_URL = `${origin()}${authPath}`;
  return authConfig();
});
