import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt } from "./columns";
import { mailMessages } from "./mail";
import { subscriptions } from "./subscriptions";

/** The recovery e-mails to a subscriber (docs/recovery.md, decision 0084). */
export const recoveryMailKinds = ["renewal_failed", "renewal_ahead", "card_expiring"] as const;
export type RecoveryMailKind = (typeof recoveryMailKinds)[number];

/**
 * One row per recovery e-mail sent: at most one per subscription, cycle and kind (the primary
 * key), written in the transaction that writes the mail message, so a replayed event, two
 * workers or a crash between commit and send never send it twice. `cycle` is the renewal's cycle
 * (2 for the first renewal) the e-mail is about.
 */
export const recoveryMails = pgTable(
  "recovery_mails",
  {
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    cycle: integer("cycle").notNull(),
    kind: text("kind", { enum: recoveryMailKinds }).notNull(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    mailMessageId: text("mail_message_id").references(() => mailMessages.id),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.subscriptionId, t.cycle, t.kind] }),
    index("recovery_mails_business_created_idx").on(t.businessId, t.createdAt),
    check("recovery_mails_kind_valid", sql`${t.kind} IN ('renewal_failed', 'renewal_ahead', 'card_expiring')`),
  ],
);

export type RecoveryMail = typeof recoveryMails.$inferSelect;
