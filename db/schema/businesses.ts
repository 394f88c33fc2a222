import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tsCol } from "./columns";

export const businesses = pgTable("businesses", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  mode: text("mode", { enum: ["sandbox", "live"] }).notNull(),
  isDemo: boolean("is_demo").notNull().default(false),
  webhookUrl: text("webhook_url"),
  /** Event kinds delivered to the merchant; the interface enables only `succeeded` by default. */
  webhookEvents: text("webhook_events")
    .array()
    .notNull()
    .default(sql`ARRAY['succeeded']::text[]`),
  /** Signing token for outbound webhooks, encrypted at rest (lib/crypto). */
  webhookTokenEnc: text("webhook_token_enc").notNull(),
  /**
   * The webhook endpoint's state (decision 0050): `active` sends; `paused` (by hand) and
   * `disabled` (Kassa stopped it: it failed every attempt too long) hold events instead.
   */
  webhookState: text("webhook_state", { enum: ["active", "paused", "disabled"] }).notNull().default("active"),
  /** Why the endpoint is paused or disabled; null while active. */
  webhookStateReason: text("webhook_state_reason"),
  /** Since when (business clock) it is paused or disabled; null while active. */
  webhookStateSince: tsCol("webhook_state_since"),
  /** Business clock time of the first failed attempt since the last delivered one; null: not failing. */
  webhookFailingSince: tsCol("webhook_failing_since"),
  /** Events that failed every attempt since webhookFailingSince. */
  webhookFailedEvents: integer("webhook_failed_events").notNull().default(0),
  payoutsEnabled: boolean("payouts_enabled").notNull().default(false),
  /** When true the customer pays the method's fees on top of the session amount. */
  passFeesToCustomer: boolean("pass_fees_to_customer").notNull().default(false),
  returnUrl: text("return_url"),
  /** One-time fraud screening fee in cents added to what the customer pays on first payments (not renewals). */
  fraudScreeningFeeCents: integer("fraud_screening_fee_cents").notNull().default(0),
  /** Fraud screening thresholds (lib/fraud/fraud-settings.ts); null: the defaults. */
  fraudSettings: jsonb("fraud_settings").$type<Record<string, unknown>>(),
  /** Checkout branding: accent colour `#rrggbb` (lower case) of the hosted pages; null: Kassa's default. */
  brandColor: text("brand_color"),
  /** Sandbox clock: milliseconds this business's clock runs ahead of real time. */
  clockOffsetMs: bigint("clock_offset_ms", { mode: "number" }).notNull().default(0),
  /**
   * Sandbox: the Stripe test clock (on the business's emulator account) that follows this clock,
   * created on first need by ensureSandboxTestClock; advancing the clock advances it too.
   */
  stripeTestClockId: text("stripe_test_clock_id"),
  /**
   * Sandbox: set while an advance of this business's clock is under way (lib/businesses/
   * advance-sandbox-clock.ts), to the real time it gives up by. Background workers leave the
   * business's jobs to the advance meanwhile, so what the provider's test clock causes runs once
   * the business's clock has moved, counted by the advance. Null when no advance runs.
   */
  clockAdvanceUntil: tsCol("clock_advance_until"),
  /**
   * Four eyes (decision 0078): payout allocations and withdrawal approvals above this many cents
   * need a second staff member's approval; null: no threshold.
   */
  approvalThresholdCents: bigint("approval_threshold_cents", { mode: "number" }),
  /** Every member must use two-factor sign-in (decision 0048); only owners change it. */
  requireTwoFactor: boolean("require_two_factor").notNull().default(false),
  /** Receipts (decision 0051): e-mail the payer a receipt after each payment, renewal and refund. */
  sendReceipts: boolean("send_receipts").notNull().default(false),
  /**
   * Recovery of failed renewals (docs/recovery.md), each opt-in: e-mail the payer when a renewal
   * fails, N days before a renewal of a plan of a month or longer, and before the first renewal
   * after the card's expiry month.
   */
  recoveryFailedMail: boolean("recovery_failed_mail").notNull().default(false),
  recoveryAheadMail: boolean("recovery_ahead_mail").notNull().default(false),
  recoveryAheadDays: integer("recovery_ahead_days").notNull().default(7),
  recoveryExpiryMail: boolean("recovery_expiry_mail").notNull().default(false),
  createdAt: createdAt(),
}, (t) => [
  index("businesses_clock_advance_idx").on(t.clockAdvanceUntil).where(sql`${t.clockAdvanceUntil} is not null`),
  check("businesses_fraud_screening_fee_nonnegative", sql`${t.fraudScreeningFeeCents} >= 0`),
  check("businesses_recovery_ahead_days_range", sql`${t.recoveryAheadDays} between 1 and 30`),
  check("businesses_brand_color_hex", sql`${t.brandColor} ~ '^#[0-9a-f]{6}$'`),
]);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    kind: text("kind", { enum: ["secret", "public"] }).notNull(),
    /** SHA-256 of the whole key, hex; the key itself is never stored. */
    digest: text("digest").notNull().unique(),
    /** First characters, for display (`sk_test_AbC4…`). */
    prefix: text("prefix").notNull(),
    /** The merchant's label for it (`backend`, `staging`…); null for the keys made with the business. */
    name: text("name"),
    createdAt: createdAt(),
    /** Set when the key was rolled: it keeps working until then (the overlap), then gets the uniform 401. */
    expiresAt: tsCol("expires_at"),
    revokedAt: tsCol("revoked_at"),
  },
  (t) => [index("api_keys_business_idx").on(t.businessId)],
);

/** The demo business's keys, kept (encrypted) so every start can print them again. */
export const demoCredentials = pgTable("demo_credentials", {
  businessId: text("business_id")
    .primaryKey()
    .references(() => businesses.id),
  secretKeyEnc: text("secret_key_enc").notNull(),
  publicKeyEnc: text("public_key_enc").notNull(),
});

export type Business = typeof businesses.$inferSelect;
export type ApiKey = typeof apiKeys.$inferSelect;
