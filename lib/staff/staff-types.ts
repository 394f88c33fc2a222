/** The signed-in staff member and what they may do (decision 0018). */
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
  /** Two-factor sign-in is required of this user and not set up: every page but its set-up sends them there (decision 0048). */
  twoFactorSetUpDue?: boolean;
  /** The browser's IP and user agent, for the audit log (set for a signed-in request). */
  client?: { ip: string | null; userAgent: string | null };
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
  | "settings" // business settings
  | "team" // invitations, roles, removing members, the four-eyes threshold (decision 0044)
  | "stripe" // connect, replace or disconnect the business's own Stripe account (owners only)
  | "audit" // read the audit log
  | "payment_links"; // create, deactivate and reactivate payment links
