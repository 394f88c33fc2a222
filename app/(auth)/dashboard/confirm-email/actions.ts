"use server";

import { headers } from "next/headers";
import { trimUserAgent } from "@/lib/audit/audit-actor";
import { getDb } from "@/lib/db";
import { clientIp } from "@/lib/http/client-ip";
import { EmailTakenError, InvalidEmailChangeTokenError, confirmEmailChange } from "@/lib/staff/confirm-email-change";
import { currentSessionId, optionalStaff } from "@/lib/staff/current-staff";
import type { AuthFormState } from "../_auth/auth-form-state";

// Confirm a new sign-in e-mail (decision 0052): the browser opening the link stays signed in when it is the same user's.
export async function confirmEmailChangeAction(_previous: AuthFormState, form: FormData): Promise<AuthFormState> {
  const token = String(form.get("token") ?? "");
  const requestHeaders = await headers();
  const client = { ip: clientIp(new Request("http://kassa.invalid/", { headers: requestHeaders })), userAgent: trimUserAgent(requestHeaders.get("user-agent")) };
  const db = await getDb();
  const staff = await optionalStaff();
  try {
    const sessionId = staff ? await currentSessionId() : null;
    const { email, userId } = await confirmEmailChange(db, { token, keepSessionId: sessionId, client });
    const stays = staff?.userId === userId && sessionId !== null;
    return {
      notice: `Your sign-in e-mail is now ${email}. ${stays ? "Your other devices were signed out." : "Every session of your account was signed out: sign in with the new e-mail."}`,
      email,
    };
  } catch (error) {
    if (error instanceof InvalidEmailChangeTokenError || error instanceof EmailTakenError) return { error: error.message };
    throw error;
  }
}
