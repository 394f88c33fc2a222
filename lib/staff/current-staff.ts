/**
 * Who is signed in to the dashboard or the support console, and for which business.
 *
 * CONTRACT between the sign-in work (which implements these) and the dashboard pages (which call
 * them). The signatures are fixed. Decision 0018: sessions, the permission matrix, switching.
 */
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/lib/db";
import { origin } from "@/lib/env";
import { clientIp } from "@/lib/http/client-ip";
import { loadStaff, staffMay } from "./load-staff";

export { staffMay };
import { auth, signInPath } from "./next-auth";
import type { Staff, StaffAction } from "./staff-types";

export type { Staff, StaffAction, StaffMembership, StaffRole } from "./staff-types";

/** The cookie naming the business the dashboard shows (set by switchBusiness, checked on every read). */
export const currentBusinessCookie = "kassa_business";

export function currentBusinessCookieOptions() {
  return { httpOnly: true, sameSite: "lax" as const, secure: origin().startsWith("https:"), path: "/", maxAge: 365 * 24 * 60 * 60 };
}

// Once per request however many layouts, pages and actions ask.
const currentStaff = cache(async (): Promise<Staff | null> => {
  const session = await auth();
  const userId = session?.user?.id;
  // A cookie without a session row (issued before sessions were kept) no longer stands.
  if (!userId || !session.sessionId) return null;
  const requested = (await cookies()).get(currentBusinessCookie)?.value ?? null;
  const staff = await loadStaff(await getDb(), { userId, signedInAt: session.signedInAt, sessionId: session.sessionId }, requested);
  if (!staff) return null;
  // Where the browser is, for the audit log of what this request changes (decision 0045).
  const sent = await headers();
  return { ...staff, client: { ip: clientIp({ headers: sent }), userAgent: sent.get("user-agent")?.slice(0, 512) ?? null } };
});

/** Where someone who must set up two-factor sign-in is sent before anything else (decision 0048). */
export const twoFactorSetUpPath = "/dashboard/account/two-factor";

/**
 * The signed-in staff member for a dashboard page, server action or data route; redirects to the
 * sign-in page when nobody is signed in, and to the two-factor set-up when it is required of them
 * and not done yet.
 */
export async function requireStaff(): Promise<Staff> {
  const staff = await requireStaffForTwoFactorSetUp();
  if (staff.twoFactorSetUpDue) redirect(twoFactorSetUpPath);
  return staff;
}

/** `requireStaff()` for the two-factor set-up page and its actions (and signing out): no set-up redirect. */
export async function requireStaffForTwoFactorSetUp(): Promise<Staff> {
  const staff = await currentStaff();
  if (!staff) redirect(signInPath);
  return staff;
}

/** The id of the signed-in session (its staff_sessions row), or null. */
export async function currentSessionId(): Promise<string | null> {
  return (await auth())?.sessionId || null;
}

/** The signed-in staff member, or null (for pages that show something else to visitors). */
export async function optionalStaff(): Promise<Staff | null> {
  return currentStaff();
}

/**
 * `requireStaff()` plus a check that the role may do `action` in the current business; throws a
 * `StaffForbiddenError` (the page shows 403) otherwise.
 */
export async function requireStaffFor(action: StaffAction): Promise<Staff> {
  const staff = await requireStaff();
  if (!staffMay(staff, action)) throw new StaffForbiddenError(action);
  return staff;
}

/** For /admin: signed in (else the sign-in page) and service support (else StaffForbiddenError). */
export async function requireAdmin(): Promise<Staff> {
  const staff = await requireStaff();
  if (!staff.isAdmin) throw new StaffForbiddenError("read", "Only service support may open the support console");
  return staff;
}

export class StaffForbiddenError extends Error {
  constructor(
    readonly action: StaffAction,
    message = `Your role may not do this (${action})`,
  ) {
    super(message);
    this.name = "StaffForbiddenError";
  }
}
