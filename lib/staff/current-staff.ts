/**
 * Who is signed in to the dashboard or the support console, and for which business.
 *
 * CONTRACT between the sign-in work (which implements these) and the dashboard pages (which call
 * them). The signatures are fixed; the bodies are being written.
 */

export type StaffRole = "owner" | "manager" | "admin";

/** One business the user belongs to (admins see every business, as `admin`). */
export type StaffMembership = { businessId: string; businessName: string; mode: "sandbox" | "live"; role: StaffRole };

export type Staff = {
  userId: string;
  email: string;
  /** True for service support (`admin`): may open any business, and reach /admin. */
  isAdmin: boolean;
  /** The business the dashboard is showing now (the user's choice, else their first). */
  businessId: string;
  /** The user's role in that business (`admin` when support opened it). */
  role: StaffRole;
  memberships: StaffMembership[];
};

/** What a staff member may do; every server action and data route names one. */
export type StaffAction =
  | "read" // see the business's data
  | "refund" // refund a payment
  | "review" // accept or decline a held payment
  | "subscriptions" // cancel or resume subscriptions
  | "payouts" // payout operations
  | "webhooks" // webhook settings, resend, token rotation
  | "api_keys" // create, roll, revoke API keys
  | "settings"; // business settings

/**
 * The signed-in staff member for a dashboard page, server action or data route; redirects to the
 * sign-in page when nobody is signed in.
 */
export async function requireStaff(): Promise<Staff> {
  throw new Error("requireStaff: not implemented yet");
}

/**
 * `requireStaff()` plus a check that the role may do `action` in the current business; throws a
 * `StaffForbiddenError` (the page shows 403) otherwise.
 */
export async function requireStaffFor(action: StaffAction): Promise<Staff> {
  void action;
  throw new Error("requireStaffFor: not implemented yet");
}

export class StaffForbiddenError extends Error {
  constructor(readonly action: StaffAction) {
    super(`Your role may not do this (${action})`);
    this.name = "StaffForbiddenError";
  }
}
