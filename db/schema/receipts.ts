import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt } from "./columns";
import { payments } from "./payments";
import { sessions, type SessionItem } from "./sessions";

export const receiptKinds = ["payment", "refund"] as const;
export type ReceiptKind = (typeof receiptKinds)[number];

/** What a receipt shows, fixed when it is issued (the hosted page shows what the e-mail said). */
export type ReceiptContent = {
  businessName: string;
  items: SessionItem[];
  /** Cents the payer paid (a refund receipt: the payment's total). */
  total: number;
  /** The processing fee the payer paid on top of the items, shown as its own line; 0: none shown. */
  fee: number;
  /** Cents refunded by this refund (refund receipts only). */
  refunded?: number;
  /** "Visa ending in 4242", "Pix": what is known of how the payer paid; null: nothing. */
  method: { type: string; brand?: string; last4?: string } | null;
  orderId: string;
  description: string | null;
  /** Renewal receipts: the subscription's cycle. */
  cycle?: number;
  /** ISO time of the payment / refund. */
  paidAt: string;
};

/**
 * A receipt e-mailed to the payer (lib/receipts, decision 0051): one per payment (a renewal's is
 * its own payment) and one per refund, enforced by `sourceKey`, written with its mail message in
 * the transaction that records the payment, renewal or refund. `token` is the hosted page's
 * capability (/receipts/{token}): random, unrelated to any id.
 */
export const receipts = pgTable(
  "receipts",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id),
    kind: text("kind", { enum: receiptKinds }).notNull(),
    /** `payment:{paymentId}` or `refund:{refundId}`: at most one receipt each. */
    sourceKey: text("source_key").notNull().unique(),
    token: text("token").notNull().unique(),
    locale: text("locale").notNull(),
    toAddress: text("to_address").notNull(),
    currency: text("currency").notNull(),
    content: jsonb("content").$type<ReceiptContent>().notNull(),
    mailMessageId: text("mail_message_id"),
    createdAt: createdAt(),
  },
  (t) => [index("receipts_payment_idx").on(t.paymentId)],
);

export type Receipt = typeof receipts.$inferSelect;
