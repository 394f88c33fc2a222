"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/lib/db";
import { currentBusinessCookie, currentBusinessCookieOptions, currentSessionId, requireStaff } from "@/lib/staff/current-staff";
import { signInPath, signOut } from "@/lib/staff/next-auth";
import { endStaffSession } from "@/lib/staff/staff-sessions";

const businessId = z.string().regex(/^biz_[0-9A-Za-z]{1,64}$/);

/** Shows another business the user belongs to (support: any business); anything else is ignored. */
export async function switchBusinessAction(requested: string): Promise<void> {
  const staff = await requireStaff();
  const parsed = businessId.safeParse(requested);
  if (parsed.success && (staff.isAdmin || staff.memberships.some((m) => m.businessId === parsed.data))) {
    (await cookies()).set(currentBusinessCookie, parsed.data, currentBusinessCookieOptions());
  }
  redirect("/dashboard");
}

/** Ends the session on the server (its row: a copy of the cookie stops working too) and in the browser. */
export async function signOutAction(): Promise<void> {
  const sessionId = await currentSessionId();
  if (sessionId) await endStaffSession(await getDb(), sessionId);
  await signOut({ redirectTo: `${signInPath}?notice=signed_out` });
}
