"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { currentBusinessCookie, currentBusinessCookieOptions, requireStaff } from "@/lib/staff/current-staff";
import { signInPath, signOut } from "@/lib/staff/next-auth";

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

/** Ends the session (Auth.js) and goes to the sign-in page. */
export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: `${signInPath}?notice=signed_out` });
}
