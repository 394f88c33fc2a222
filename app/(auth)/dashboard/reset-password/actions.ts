"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/lib/db";
import { StaffInputError } from "@/lib/staff/errors";
import { InvalidResetTokenError, resetPassword } from "@/lib/staff/password-reset";
import type { AuthFormState } from "../_auth/auth-form-state";

export async function resetPasswordAction(_previous: AuthFormState, form: FormData): Promise<AuthFormState> {
  const token = String(form.get("token") ?? "");
  const password = String(form.get("password") ?? "");
  if (password !== String(form.get("confirm") ?? "")) return { error: "The two passwords differ." };
  try {
    await resetPassword(await getDb(), { token, password });
  } catch (error) {
    if (error instanceof InvalidResetTokenError || error instanceof StaffInputError) return { error: error.message };
    throw error;
  }
  redirect("/dashboard/sign-in?notice=reset");
}
