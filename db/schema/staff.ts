import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";

export const membershipRoles = ["owner", "manager"] as const;
export type MembershipRole = (typeof membershipRoles)[number];

/** Dashboard and support staff (decision 0018). Not payout users, not customers. */
export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Lower-cased and trimmed when written; the unique index on lower() guards the rule anyway. */
    email: text("email").notNull(),
    /** argon2id, PHC string (lib/staff/password.ts). */
    passwordHash: text("password_hash").notNull(),
    /** Service support: may open every business and reach /admin. */
    isAdmin: boolean("is_admin").notNull().default(false),
    /** Signed-in sessions issued before this instant are refused (set when the password changes). */
    sessionsValidAfter: tsCol("sessions_valid_after").notNull().default(sql`now()`),
    disabledAt: tsCol("disabled_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`)],
);

/** A user's role in one business; a user may belong to several. */
export const memberships = pgTable(
  "memberships",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    role: text("role", { enum: membershipRoles }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.businessId] }),
    index("memberships_business_idx").on(t.businessId),
    check("memberships_role_valid", sql`${t.role} IN ('owner', 'manager')`),
  ],
);

/** Password reset links: only the SHA-256 of the token is kept; single use, short-lived. */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    digest: text("digest").notNull(),
    expiresAt: tsCol("expires_at").notNull(),
    usedAt: tsCol("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("password_reset_tokens_digest_idx").on(t.digest), index("password_reset_tokens_user_idx").on(t.userId)],
);

/**
 * A pending change of a user's sign-in e-mail (decision 0052): the new address, and only the SHA-256
 * of the token mailed to it; single use, for 24 hours. The change happens when the link is opened.
 */
export const emailChangeTokens = pgTable(
  "email_change_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    /** Normalized (lib/staff/email.ts) when written. */
    newEmail: text("new_email").notNull(),
    digest: text("digest").notNull(),
    expiresAt: tsCol("expires_at").notNull(),
    usedAt: tsCol("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("email_change_tokens_digest_idx").on(t.digest), index("email_change_tokens_user_idx").on(t.userId)],
);

/** The demo business's sign-in (`npm start` prints it on every start): its password, encrypted. */
export const demoLogins = pgTable("demo_logins", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id),
  passwordEnc: text("password_enc").notNull(),
});

export type User = typeof users.$inferSelect;
export type Membership = typeof memberships.$inferSelect;
