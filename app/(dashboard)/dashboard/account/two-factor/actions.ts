"use server";

import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import {
  confirmTwoFactorAs,
  disableTwoFactorAs,
  regenerateRecoveryCodesAs,
  startTwoFactorAs,
  type TwoFactorEnrollment,
} from "@/lib/dashboard/two-factor-actions";
import { formObject, type ActionState } from "@/lib/dashboard/staff-action";
import { getDb } from "@/lib/db";
import { clientIp } from "@/lib/http/client-ip";
import { requireStaffForTwoFactorSetUp } from "@/lib/staff/current-staff";

async function ip(): Promise<string | null> {
  return clientIp(new Request("http://kassa.invalid/", { headers: await headers() }));
}

// Start a set-up: a new secret and its QR code (decision 0048).
export async function startTwoFactorAction(): Promise<ActionState<TwoFactorEnrollment>> {
  return startTwoFactorAs(await getDb(), await requireStaffForTwoFactorSetUp());
}

// Confirm it with a code from the app: two-factor is on, the recovery codes are shown once.
export async function confirmTwoFactorAction(_previous: ActionState<{ recoveryCodes: string[] }>, form: FormData): Promise<ActionState<{ recoveryCodes: string[] }>> {
  // Not revalidated: the page would then show "on" in place of the recovery codes, shown only now.
  return confirmTwoFactorAs(await getDb(), await requireStaffForTwoFactorSetUp(), formObject(form), await ip());
}

// New recovery codes after a current code.
export async function regenerateRecoveryCodesAction(_previous: ActionState<{ recoveryCodes: string[] }>, form: FormData): Promise<ActionState<{ recoveryCodes: string[] }>> {
  return regenerateRecoveryCodesAs(await getDb(), await requireStaffForTwoFactorSetUp(), formObject(form), await ip());
}

// Turn two-factor off with the password and a code.
export async function disableTwoFactorAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const result = await disableTwoFactorAs(await getDb(), await requireStaffForTwoFactorSetUp(), formObject(form), await ip());
  if (result.ok) revalidatePath("/dashboard", "layout");
  return result;
}
