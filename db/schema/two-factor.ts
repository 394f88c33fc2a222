import { bigint, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tsCol } from "./columns";
import { users } from "./staff";

/**
 * A staff user's TOTP authenticator (RFC 6238, decision 0048). The secret is encrypted at rest
 * (lib/crypto); `enabledAt` null means set up but not confirmed with a code yet (not asked at
 * sign-in). `lastStep` is the time step of the last accepted code: a code of that step or an
 * earlier one is refused (no replay).
 */
export const staffTwoFactor = pgTable("staff_two_factor", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id),
  secretEnc: text("secret_enc").notNull(),
  lastStep: bigint("last_step", { mode: "number" }),
  enabledAt: tsCol("enabled_at"),
  createdAt: createdAt(),
});

/** Single-use recovery codes: only a keyed digest (HMAC-SHA-256) of each is kept. */
export const staffRecoveryCodes = pgTable(
  "staff_recovery_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    digest: text("digest").notNull(),
    usedAt: tsCol("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("staff_recovery_codes_digest_idx").on(t.digest), index("staff_recovery_codes_user_idx").on(t.userId)],
);
