import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";

/** Every kind of background work. A text column: new kinds need no migration. */
export const jobKinds = [
  "deliver_webhook",
  "expire_session",
  "process_provider_event",
  "setup_subscription",
  /** Executes a reserved refund at its provider (lib/payments/refund-payment.ts). */
  "refund_payment",
  /** Sends one e-mail of mail_messages (lib/mail/send-mail.ts). */
  "send_mail",
  /**
   * Writes a password reset's token and e-mail for an active user, or nothing (lib/staff/password-reset.ts):
   * the request answers before, having done the same work for every e-mail.
   */
  "start_password_reset",
  /** The notices before a subscription's renewal: renewal ahead, card expiring (lib/recovery). */
  "recovery_notice",
] as const;
export type JobKind = (typeof jobKinds)[number];

export const jobStatuses = ["pending", "running", "done", "failed"] as const;
export type JobStatus = (typeof jobStatuses)[number];

/**
 * The outbox: one row per unit of asynchronous work, written in the same transaction as its
 * cause. Executors (the embedded worker, Inngest, the sandbox clock) claim a due row by setting
 * `status = 'running'` with a lease (`locked_until`) and a fresh `lock_token`; only the holder of
 * that token may finish the row. A row whose lease ran out is claimed again.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: jobKinds }).notNull(),
    businessId: text("business_id").references(() => businesses.id),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: jobStatuses }).notNull().default("pending"),
    /** Real time the row is due. */
    runAt: tsCol("run_at").notNull(),
    /**
     * Due by the business's clock (a sandbox business's clock can be advanced): advancing the
     * clock moves `run_at` of these rows earlier by the same amount.
     */
    businessClock: boolean("business_clock").notNull().default(false),
    /** Makes enqueueing idempotent (e.g. one expiry per session). */
    dedupeKey: text("dedupe_key").unique(),
    /** Times the row was claimed. */
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(25),
    lockedBy: text("locked_by"),
    lockToken: text("lock_token"),
    lockedUntil: tsCol("locked_until"),
    lastError: text("last_error"),
    /** Last time an Inngest event was sent for this row (Inngest mode only). */
    dispatchedAt: tsCol("dispatched_at"),
    finishedAt: tsCol("finished_at"),
    createdAt: createdAt(),
    updatedAt: tsCol("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("jobs_due_idx")
      .on(t.runAt)
      .where(sql`${t.status} = 'pending'`),
    index("jobs_lease_idx")
      .on(t.lockedUntil)
      .where(sql`${t.status} = 'running'`),
    index("jobs_business_idx").on(t.businessId, t.status),
  ],
);

export type Job = typeof jobs.$inferSelect;
export type NewJob = typeof jobs.$inferInsert;
