"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { cookies } from "next/headers";
import { origin } from "@/lib/env";
import { log } from "@/lib/log";
import { SignInRefused, signIn } from "@/lib/staff/next-auth";
import { signInTicketCookie, signInTicketSeconds } from "@/lib/staff/sign-in-ticket";
import { deviceCookie, newDeviceId, validDeviceId } from "@/lib/staff/staff-sessions";
import type { AuthFormState } from "../_auth/auth-form-state";
import { safeCallbackUrl } from "../_auth/callback-url";

function cookieOptions(maxAge: number) {
  return { httpOnly: true, sameSite: "lax" as const, secure: origin().startsWith("https:"), path: "/", maxAge };
}

// A server action: Next refuses it unless its Origin is this site (its CSRF protection), and
// Auth.js sets the session cookie from it (decision 0018). With two-factor on (decision 0048) it
// runs twice: the password answers `step: "code"` and a ticket cookie; the code then signs in.
export async function signInAction(_previous: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = String(form.get("email") ?? "").trim().slice(0, 320);
  const codeStep = form.get("step") === "code";
  const code = String(form.get("code") ?? "").trim().slice(0, 40);
  const password = String(form.get("password") ?? "");
  const jar = await cookies();
  const ticket = codeStep ? (jar.get(signInTicketCookie)?.value ?? "") : "";
  if (codeStep && !ticket) return { email, error: "Your sign-in took too long. Enter your e-mail and password again." };
  if (codeStep && !code) return { email, step: "code", error: "Enter the code from your authenticator app, or a recovery code." };
  if (!codeStep && (!email || !password)) return { email, error: "Enter your e-mail and password." };
  // The device cookie names this browser across sign-ins ("new sign-in" e-mails, decision 0044).
  const device = validDeviceId(jar.get(deviceCookie)?.value) ?? newDeviceId();
  jar.set(deviceCookie, device, cookieOptions(400 * 24 * 60 * 60));
  // The ticket is spent by a sign-in; a refused code puts it back (below).
  if (codeStep) jar.delete(signInTicketCookie);
  try {
    // Redirects (throws Next's redirect) on success.
    const credentials = codeStep ? { ticket, code } : { email, password };
    await signIn("credentials", { ...credentials, device, redirectTo: safeCallbackUrl(form.get("callbackUrl")) });
  } catch (error) {
    if (error instanceof SignInRefused && error.code === "two_factor" && error.ticket) {
      jar.set(signInTicketCookie, error.ticket, cookieOptions(signInTicketSeconds));
      return { email, step: "code" };
    }
    if (error instanceof CredentialsSignin) {
      const again = codeStep && (error.code === "invalid_code" || error.code === "rate_limited");
      if (again) jar.set(signInTicketCookie, ticket, cookieOptions(signInTicketSeconds));
      return { email, step: again ? "code" : undefined, error: refusal(error) };
    }
    if (error instanceof AuthError) {
      log.error("sign-in failed", { error });
      return { email, error: "Signing in failed. Please try again." };
    }
    throw error;
  }
  return {};
}

function refusal(error: CredentialsSignin): string {
  if (error.code === "rate_limited") {
    const seconds = error instanceof SignInRefused ? (error.retryAfterSeconds ?? 900) : 900;
    return `Too many failed attempts. Try again in ${Math.max(1, Math.ceil(seconds / 60))} minutes.`;
  }
  if (error.code === "no_business") return "This account does not belong to any business yet. Ask an owner to add you.";
  if (error.code === "invalid_code") return "That code is not right, or was used already. Enter the current code from your app, or a recovery code.";
  if (error.code === "ticket_expired") return "This sign-in took too long or was completed already. Enter your e-mail and password again.";
  return "Wrong e-mail or password.";
}
