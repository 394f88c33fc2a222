import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";

export const sandboxProviderPaymentStatuses = ["open", "underpaid", "paid", "failed"] as const;
export type SandboxProviderPaymentStatus = (typeof sandboxProviderPaymentStatuses)[number];

/**
 * The sandbox redirect provider's own records (it stands for an external crypto or Pix
 * provider): Kassa reaches them only through the provider adapter and its signed webhooks.
 */
export const sandboxProviderPayments = pgTable(
  "sandbox_provider_payments",
  {
    /** Unguessable: the simulator page is reached by it without authentication. */
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    method: text("method").notNull(),
    currency: text("currency").notNull(),
    amount: integer("amount").notNull(),
    amountPaid: integer("amount_paid").notNull().default(0),
    amountRefunded: integer("amount_refunded").notNull().default(0),
    status: text("status", { enum: sandboxProviderPaymentStatuses }).notNull().default("open"),
    /** The merchant's (Kassa's) reference: the payment attempt id. */
    reference: text("reference").notNull(),
    description: text("description"),
    returnUrl: text("return_url").notNull(),
    metadata: jsonb("metadata").$type<Record<string, string>>().notNull(),
    createdAt: createdAt(),
    updatedAt: tsCol("updated_at").notNull().defaultNow(),
  },
  (t) => [
    // Kassa finds a payment by its reference when a crash lost the provider's id (reconciliation).
    index("sandbox_provider_payments_reference_idx").on(t.businessId, t.reference),
    check(
      "sandbox_provider_payments_amounts_valid",
      sql`${t.amountPaid} >= 0 AND ${t.amountPaid} <= ${t.amount} AND ${t.amountRefunded} >= 0 AND ${t.amountRefunded} <= ${t.amountPaid}`,
    ),
  ],
);

export type SandboxProviderPayment = typeof sandboxProviderPayments.$inferSelect;
