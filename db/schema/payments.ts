import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";
import { sessions } from "./sessions";

export const paymentStatuses = [
  "succeeded",
  "failed",
  "pending",
  "processing",
  "pending_review",
  "declined",
  "expired",
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export type CustomerDetails = {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  address?: {
    line1?: string | null;
    line2?: string | null;
    city?: string | null;
    state?: string | null;
    postal_code?: string | null;
    country?: string | null;
  } | null;
};

export type PaymentDetails = {
  type: string;
  card?: { brand: string; last4: string; exp_month: string; exp_year: string; country: string | null };
};

/** The payment of a session: at most one per session, updated as attempts progress. */
export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .unique()
      .references(() => sessions.id),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    status: text("status", { enum: paymentStatuses }).notNull(),
    /** Gross cents the customer pays (session amount, plus fees when passed to the customer). */
    amount: integer("amount").notNull(),
    fees: integer("fees"),
    netAmount: integer("net_amount"),
    paymentMethod: text("payment_method"),
    provider: text("provider"),
    providerPaymentId: text("provider_payment_id"),
    customerDetails: jsonb("customer_details").$type<CustomerDetails>(),
    paymentDetails: jsonb("payment_details").$type<PaymentDetails>(),
    ip: text("ip"),
    country: text("country"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    updatedAt: tsCol("updated_at").notNull().defaultNow(),
  },
  (t) => [index("payments_business_idx").on(t.businessId)],
);

export type Payment = typeof payments.$inferSelect;
