"use server";

import { headers } from "next/headers";
import { changePasswordAs, requestEmailChangeAs, signOutEverywhereAs } from "@/lib/dashboard/account-actions";
import { formObject, type ActionResult } from "@/lib/dashboard/staff-action";
import { getDb } from "@/lib/db";
import { clientIp } from "@/lib/http/client-ip";
import { currentSessionId, requireStaff } from "@/lib/staff/current-staff";
import { signInPath, signOut } from "@/lib/staff/next-auth";

// Change the password: the current one is checked; other sessions end.
export async function changePasswordAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult | null> {
  const staff = await requireStaff();
  const ip = clientIp(new Request("http://kassa.invalid/", { headers: await headers() }));
  return changePasswordAs(await getDb(), staff, await currentSessionId(), formObject(form), ip);
}

// Change the sign-in e-mail: password (and code) checked; the link goes to the new address.
export async function requestEmailChangeAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult | null> {
  const staff = await requireStaff();
  const ip = clientIp(new Request("http://kassa.invalid/", { headers: await headers() }));
  return requestEmailChangeAs(await getDb(), staff, formObject(form), ip);
}

// "Sign out everywhere": every session of this user ends on the server, this one too.
export async function signOutEverywhereAction(): Promise<void> {
  const staff = await requireStaff();
  await signOutEverywhereAs(await getDb(), staff);
  await signOut({ redirectTo: `${signInPath}?notice=signed_out_everywhere` });
}
