import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt } from "./columns";

export const auditActorTypes = ["user", "api_key", "system"] as const;
export type AuditActorType = (typeof auditActorTypes)[number];

/** One field's value before and after a change (secrets are never written: `"[redacted]"`). */
export type AuditChange = { from: unknown; to: unknown };
export type AuditChanges = Record<string, AuditChange>;

/**
 * Who changed what in a business (decision 0045): written in the transaction of the change, never
 * updated or deleted (a trigger refuses, as for the ledger). The actor is a staff member (user id
 * and the e-mail at the time) or a secret key (its id and display prefix).
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    actorType: text("actor_type", { enum: auditActorTypes }).notNull(),
    /** users.id; no foreign key: a removed staff member's history stays. */
    actorUserId: text("actor_user_id"),
    actorEmail: text("actor_email"),
    /** api_keys.id and its display prefix (`sk_live_AbCd…`). */
    actorKeyId: text("actor_key_id"),
    actorKeyPrefix: text("actor_key_prefix"),
    /** What was done: `payment.refund`, `api_key.roll`, … (docs/audit.md lists them). */
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    changes: jsonb("changes").$type<AuditChanges>().notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_events_business_idx").on(t.businessId, t.id),
    index("audit_events_business_action_idx").on(t.businessId, t.action, t.id),
  ],
);

export type AuditEvent = typeof auditEvents.$inferSelect;
