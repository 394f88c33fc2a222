"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { trimUserAgent } from "@/lib/audit/audit-actor";
import { getDb } from "@/lib/db";
import { clientIp } from "@/lib/http/client-ip";
import { acceptInvitation, InvalidInvitationError } from "@/lib/staff/accept-invitation";
import { LoginRateLimitedError, StaffInputError } from "@/lib/staff/errors";
import type { AuthFormState } from "../_auth/auth-form-state";

// Accepts the invitation (a new account, or an existing one with its password), then the sign-in page.
export async function acceptInvitationAction(_previous: AuthFormState, form: FormData): Promise<AuthFormState> {
  const token = String(form.get("token") ?? "");
  const password = String(form.get("password") ?? "");
  const existing = form.get("existing") === "1";
  if (!existing && password !== String(form.get("confirm") ?? "")) return { error: "The two passwords differ." };
  const requestHeaders = await headers();
  const ip = clientIp(new Request("http://kassa.invalid/", { headers: requestHeaders }));
  try {
    await acceptInvitation(await getDb(), { token, password, ip, userAgent: trimUserAgent(requestHeaders.get("user-agent")) });
  } catch (error) {
    if (error instanceof InvalidInvitationError || error instanceof StaffInputError) return { error: error.message };
    if (error instanceof LoginRateLimitedError) return { error: "Too many failed attempts. Try again later." };
    throw error;
  }
  redirect("/dashboard/sign-in?notice=joined");
}
