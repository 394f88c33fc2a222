import { sql } from "drizzle-orm";
import { bigint, check, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";
import { users } from "./staff";

/**
 * A signed-in dashboard session (decision 0044): the Auth.js cookie names its row, and every
 * request checks the row is still open, so signing out, a password change and "sign out
 * everywhere" end sessions on the server at once. `device_digest` is the SHA-256 of the browser's
 * device cookie: a sign-in from a device the user never used sends a "new sign-in" e-mail.
 */
export const staffSessions = pgTable(
  "staff_sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    deviceDigest: text("device_digest").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    endedAt: tsCol("ended_at"),
  },
  (t) => [index("staff_sessions_user_idx").on(t.userId, t.deviceDigest)],
);

export const invitationRoles = ["owner", "manager"] as const;

/** An owner's invitation to join a business (decision 0044): single use, 7 days, token kept as its SHA-256. */
export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    email: text("email").notNull(),
    role: text("role", { enum: invitationRoles }).notNull(),
    digest: text("digest").notNull(),
    invitedBy: text("invited_by").references(() => users.id),
    expiresAt: tsCol("expires_at").notNull(),
    acceptedAt: tsCol("accepted_at"),
    acceptedBy: text("accepted_by").references(() => users.id),
    revokedAt: tsCol("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invitations_digest_idx").on(t.digest),
    // One open invitation per e-mail and business: inviting twice is refused, resend renews it.
    uniqueIndex("invitations_open_email_idx")
      .on(t.businessId, sql`lower(${t.email})`)
      .where(sql`${t.acceptedAt} IS NULL AND ${t.revokedAt} IS NULL`),
    check("invitations_role_valid", sql`${t.role} IN ('owner', 'manager')`),
  ],
);

export const approvalKinds = ["allocate", "complete_withdrawal"] as const;
export type ApprovalKind = (typeof approvalKinds)[number];

/**
 * Four eyes on money leaving (decision 0078): a payout allocation or withdrawal approval above
 * the business's `approval_threshold_cents`, waiting for a second staff member.
 */
export const payoutApprovals = pgTable(
  "payout_approvals",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    kind: text("kind", { enum: approvalKinds }).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    /** What to run once approved: `{email}` for an allocation, `{withdrawalId, settlementReference}`. */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    requestedBy: text("requested_by")
      .notNull()
      .references(() => users.id),
    requestedByEmail: text("requested_by_email").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    decidedBy: text("decided_by").references(() => users.id),
    decidedByEmail: text("decided_by_email"),
    decidedAt: tsCol("decided_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("payout_approvals_business_idx").on(t.businessId, t.status),
    // One pending request per withdrawal: asking twice is refused.
    uniqueIndex("payout_approvals_pending_withdrawal_idx")
      .on(t.businessId, sql`(${t.payload} ->> 'withdrawalId')`)
      .where(sql`${t.status} = 'pending' AND ${t.kind} = 'complete_withdrawal'`),
    check("payout_approvals_status_valid", sql`${t.status} IN ('pending', 'approved', 'rejected')`),
    check("payout_approvals_four_eyes", sql`${t.decidedBy} IS NULL OR ${t.decidedBy} <> ${t.requestedBy}`),
  ],
);

export type StaffSession = typeof staffSessions.$inferSelect;
export type Invitation = typeof invitations.$inferSelect;
export type PayoutApproval = typeof payoutApprovals.$inferSelect;
