"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { cookies } from "next/headers";
import { origin } from "@/lib/env";
import { log } from "@/lib/log";
import { SignInRefused, signIn } from "@/lib/staff/next-auth";
import { deviceCookie, newDeviceId, validDeviceId } from "@/lib/staff/staff-sessions";
import type { AuthFormState } from "../_auth/auth-form-state";
import { safeCallbackUrl } from "../_auth/callback-url";

// A server action: Next refuses it unless its Origin is this site (its CSRF protection), and
// Auth.js sets the session cookie from it (decision 0018).
export async function signInAction(_previous: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = String(form.get("email") ?? "").trim().slice(0, 320);
  const password = String(form.get("password") ?? "");
  if (!email || !password) return { email, error: "Enter your e-mail and password." };
  // The device cookie names this browser across sign-ins ("new sign-in" e-mails, decision 0044).
  const jar = await cookies();
  const device = validDeviceId(jar.get(deviceCookie)?.value) ?? newDeviceId();
  jar.set(deviceCookie, device, { httpOnly: true, sameSite: "lax", secure: origin().startsWith("https:"), path: "/", maxAge: 400 * 24 * 60 * 60 });
  try {
    // Redirects (throws Next's redirect) on success.
    await signIn("credentials", { email, password, device, redirectTo: safeCallbackUrl(form.get("callbackUrl")) });
  } catch (error) {
    if (error instanceof CredentialsSignin) return { email, error: refusal(error) };
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
  return "Wrong e-mail or password.";
}
