"use server";

import { headers } from "next/headers";
import { getDb } from "@/lib/db";
import { origin } from "@/lib/env";
import { clientIp } from "@/lib/http/client-ip";
import { isEmail, normalizeEmail } from "@/lib/staff/email";
import { LoginRateLimitedError } from "@/lib/staff/errors";
import { requestPasswordReset } from "@/lib/staff/password-reset";
import type { AuthFormState } from "../_auth/auth-form-state";

const sent =
  "If an account uses that e-mail, a link to choose a new password is on its way by e-mail; it works for one hour, once.";

// The answer never says whether the e-mail has an account, nor does its timing: the same work is
// done for every e-mail before it (lib/staff/password-reset.ts).
export async function requestResetAction(_previous: AuthFormState, form: FormData): Promise<AuthFormState> {
  const email = normalizeEmail(String(form.get("email") ?? "").slice(0, 320));
  if (!isEmail(email)) return { email, error: "Enter an e-mail address." };
  const ip = clientIp(new Request("http://kassa.invalid/", { headers: await headers() }));
  try {
    await requestPasswordReset(await getDb(), {
      email,
      ip,
      pageUrl: `${origin()}/dashboard/reset-password`,
    });
  } catch (error) {
    if (error instanceof LoginRateLimitedError) return { email, error: "Too many requests. Try again later." };
    throw error;
  }
  return { notice: sent };
}
