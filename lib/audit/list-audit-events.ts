import { and, desc, eq, gte, ilike, lt, or, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditEvents, type AuditEvent } from "@/db/schema";
import { parseOrThrow } from "@/lib/http/validation";
import { isoMicros } from "@/lib/time";
import { containing } from "@/lib/sql-like";
import {
  auditEventsQuerySchema,
  type AuditEventList,
  type AuditEventsQuery,
  type AuditEventView,
} from "./audit-schemas";

export function auditEventView(row: AuditEvent): AuditEventView {
  return {
    id: row.id,
    object: "audit_event",
    actor:
      row.actorType === "user"
        ? { type: "user", email: row.actorEmail ?? "" }
        : row.actorType === "system"
          ? { type: "system" }
          : { type: "api_key", prefix: row.actorKeyPrefix ?? "" },
    action: row.action as AuditEventView["action"],
    target: { type: row.targetType, id: row.targetId },
    changes: row.changes,
    ip: row.ip,
    user_agent: row.userAgent,
    created_at: isoMicros(row.createdAt),
  };
}

/** The query string of GET /audit-events, validated (the 400 field map names the parameter). */
export function parseAuditEventsQuery(params: URLSearchParams): AuditEventsQuery {
  const raw: Record<string, string> = {};
  for (const key of ["action", "created_from", "created_until", "limit", "starting_after"]) {
    const value = params.get(key);
    if (value) raw[key] = value;
  }
  return parseOrThrow(auditEventsQuerySchema, raw);
}

export type AuditEventFilters = AuditEventsQuery & {
  /** The dashboard's filter: an actor's e-mail or key prefix (part of it). */
  actor?: string;
};

/**
 * A business's audit events, newest first (ids sort by creation), `limit` per page older than the
 * `starting_after` id; filtered by action, actor and the creation range.
 */
export async function listAuditEvents(
  db: Db,
  businessId: string,
  filters: AuditEventFilters,
): Promise<AuditEventList> {
  const limit = filters.limit ?? 10;
  const where: (SQL | undefined)[] = [eq(auditEvents.businessId, businessId)];
  if (filters.action) where.push(eq(auditEvents.action, filters.action));
  if (filters.created_from) where.push(gte(auditEvents.createdAt, filters.created_from));
  if (filters.created_until) where.push(lt(auditEvents.createdAt, filters.created_until));
  if (filters.starting_after) where.push(lt(auditEvents.id, filters.starting_after));
  const actor = filters.actor?.trim();
  if (actor) {
    const like = containing(actor);
    where.push(or(ilike(auditEvents.actorEmail, like), ilike(auditEvents.actorKeyPrefix, like)));
  }
  const rows = await db
    .select()
    .from(auditEvents)
    .where(and(...where))
    .orderBy(desc(auditEvents.id))
    .limit(limit + 1);
  return { data: rows.slice(0, limit).map(auditEventView), has_more: rows.length > limit };
}
