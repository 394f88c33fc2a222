// Auth.js (next-auth v5) for the dashboard and the support console: e-mail and password, JWT
// sessions in an encrypted cookie (decision 0018). The only file here that knows about Next.
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getDb } from "@/lib/db";
import { origin } from "@/lib/env";
import { clientIp } from "@/lib/http/client-ip";
import { log } from "@/lib/log";
import { authSecret } from "./auth-secret";
import { authenticate } from "./authenticate";
import { LoginRateLimitedError } from "./errors";
import { openStaffSession, validDeviceId } from "./staff-sessions";

/** A refused sign-in; `code` says why (the form shows one message per code). */
export class SignInRefused extends CredentialsSignin {
  constructor(
    code: "invalid" | "no_business" | "rate_limited",
    readonly retryAfterSeconds?: number,
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
      },
      authorize: async (credentials, request) => {
        const email = typeof credentials.email === "string" ? credentials.email : "";
        const password = typeof credentials.password === "string" ? credentials.password : "";
        let outcome;
        try {
          outcome = await authenticate(await getDb(), { email, password, ip: clientIp(request) });
        } catch (error) {
          if (error instanceof LoginRateLimitedError) throw new SignInRefused("rate_limited", error.retryAfterSeconds);
          throw error;
        }
        if (!outcome.ok) throw new SignInRefused(outcome.reason);
        const { sessionId } = await openStaffSession(await getDb(), {
          userId: outcome.userId,
          deviceId: validDeviceId(credentials.device),
          ip: clientIp(request),
          userAgent: request.headers.get("user-agent"),
        });
        return { id: outcome.userId, email: outcome.email, sessionId };
      },
    }),
  ],
  callbacks: {
    // The token carries the user id and when they signed in (kept across refreshes, unlike `iat`,
    // so a reset password ends older sessions); roles and businesses are read fresh per request.
    jwt: ({ token, user }) =>
      user ? { sub: user.id, email: user.email, signedInAt: Math.floor(Date.now() / 1000), sid: user.sessionId } : token,
    session: ({ session, token }) => ({
      ...session,
      user: { ...session.user, id: token.sub ?? "" },
      signedInAt: typeof token.signedInAt === "number" ? token.signedInAt : 0,
      sessionId: typeof token.sid === "string" ? token.sid : "",
    }),
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
