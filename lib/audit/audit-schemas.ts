import { z } from "zod";
import { createdRange, rangeInOrder } from "@/lib/http/instant-param";
import { listLimitParam } from "@/lib/http/validation";
import { auditActions } from "./record-audit";

const changeSchema = z.object({ from: z.unknown(), to: z.unknown() });

export const AuditEventSchema = z
  .strictObject({
    id: z.string().meta({ example: "aud_01JD8Y3X7Q2W5E9R4T6Y8U0I2O" }),
    object: z.literal("audit_event"),
    actor: z
      .union([
        z.strictObject({ type: z.literal("user"), email: z.string() }),
        z.strictObject({ type: z.literal("api_key"), prefix: z.string().meta({ example: "sk_live_AbCd…" }) }),
        z.strictObject({ type: z.literal("system") }),
      ])
      .meta({
        description:
          "A staff member (their e-mail when they acted), a secret key (its display prefix), or Kassa itself (`system`, e.g. a failing webhook endpoint disabled).",
      }),
    action: z.enum(auditActions),
    target: z
      .strictObject({ type: z.string(), id: z.string() })
      .meta({
        description:
          "What was changed: `payment` (a session id), `subscription`, `api_key`, `business`, `payout_user`, …",
      }),
    changes: z
      .record(z.string(), changeSchema)
      .meta({ description: "Each changed field's value before and after; secrets read `[redacted]`." }),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    created_at: z.string().meta({ example: "2026-11-26T14:02:50.123456Z" }),
  })
  .meta({ id: "AuditEvent" });
export type AuditEventView = z.infer<typeof AuditEventSchema>;

export const AuditEventListSchema = z
  .strictObject({ data: z.array(AuditEventSchema), has_more: z.boolean() })
  .meta({
    id: "AuditEventList",
    description: "Newest first; the next page holds the events older than its last id.",
  });
export type AuditEventList = z.infer<typeof AuditEventListSchema>;

/** Query of GET /audit-events. */
export const auditEventsQuerySchema = z
  .object({
    action: z
      .enum(auditActions, { error: `action must be one of ${auditActions.join(", ")}` })
      .optional()
      .meta({ description: "Only events of this action." }),
    ...createdRange,
    limit: listLimitParam()
      .optional()
      .meta({ description: "Page size: an integer from 1 to 100 (default 10)." }),
    starting_after: z
      .string()
      .regex(/^aud_[0-9A-Z]{26}$/, { error: "starting_after must be an audit event id" })
      .optional()
      .meta({ description: "The last id of the previous page: the next page holds older events." }),
  })
  .refine(...rangeInOrder);
export type AuditEventsQuery = z.infer<typeof auditEventsQuerySchema>;
