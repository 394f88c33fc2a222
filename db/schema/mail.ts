import { sql } from "drizzle-orm";
import { check, index, pgTable, text } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";

export const mailKinds = ["staff_invitation", "password_reset", "new_sign_in", "owner_notice", "two_factor_off", "receipt", "email_change", "email_change_notice", "recovery"] as const;
export type MailKind = (typeof mailKinds)[number];

/**
 * `pending`: its send_mail job has not run; `sent`: handed to the SMTP server; `kept`: no SMTP_URL,
 * kept here for the mailbox page (decision 0044); `failed`: the SMTP server refused it for good.
 */
export const mailStatuses = ["pending", "sent", "kept", "failed"] as const;
export type MailStatus = (typeof mailStatuses)[number];

/**
 * Every e-mail Kassa sends, written (rendered) in the transaction that causes it, with its
 * send_mail job (lib/mail). The Message-ID is fixed here, so a message sent twice after a crash is
 * the same message to every mail system.
 */
export const mailMessages = pgTable(
  "mail_messages",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id").references(() => businesses.id),
    kind: text("kind", { enum: mailKinds }).notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    /** RFC 5322 Message-ID, `<id@host>`: the same on every attempt. */
    messageId: text("message_id").notNull().unique(),
    status: text("status", { enum: mailStatuses }).notNull().default("pending"),
    lastError: text("last_error"),
    sentAt: tsCol("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("mail_messages_created_idx").on(t.createdAt),
    check("mail_messages_status_valid", sql`${t.status} IN ('pending', 'sent', 'kept', 'failed')`),
  ],
);

export type MailMessage = typeof mailMessages.$inferSelect;
