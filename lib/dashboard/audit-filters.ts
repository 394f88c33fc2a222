import { z } from "zod";
import { dayAfter, dayParam } from "@/lib/http/instant-param";
import { auditActions } from "@/lib/audit/record-audit";
import type { AuditEventFilters } from "@/lib/audit/list-audit-events";

const day = dayParam();
const empty = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v);

/** The audit page's query string: who, what, from and to (days, UTC, inclusive), and the page cursor. */
export const auditPageFiltersSchema = z.object({
  actor: z.preprocess(empty, z.string().max(255, "At most 255 characters").optional()),
  action: z.preprocess(empty, z.enum(auditActions, { error: "Unknown action" }).optional()),
  from: z.preprocess(empty, day.optional()),
  to: z.preprocess(empty, day.optional()),
  after: z.preprocess(empty, z.string().regex(/^aud_[0-9A-Z]{26}$/, "Not an audit event").optional()),
});
export type AuditPageFilters = z.infer<typeof auditPageFiltersSchema>;

/** Each valid filter kept, each bad one named (the page shows why it was ignored). */
export function parseAuditPageFilters(params: Record<string, string | string[] | undefined>): {
  filters: AuditPageFilters;
  message: string | null;
  fields: Record<string, string[]>;
} {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const filters: Record<string, unknown> = {};
  const fields: Record<string, string[]> = {};
  for (const key of Object.keys(auditPageFiltersSchema.shape)) {
    const one = auditPageFiltersSchema.shape[key as keyof AuditPageFilters].safeParse(first(params[key]));
    if (one.success) filters[key] = one.data;
    else fields[key] = one.error.issues.map((i) => i.message);
  }
  if (filters.from && filters.to && String(filters.from) > String(filters.to)) {
    fields.to = ["The end date is before the start date"];
    delete filters.to;
  }
  const message = Object.keys(fields).length
    ? Object.entries(fields)
        .map(([key, messages]) => `${key}: ${messages.join(", ")}`)
        .join("; ")
    : null;
  return { filters: filters as AuditPageFilters, message, fields };
}

/** The page's filters as the service's (the `to` day is inclusive). */
export function auditServiceFilters(filters: AuditPageFilters, limit: number): AuditEventFilters {
  // The last day of the range has no day after it: no upper bound.
  const next = filters.to ? dayAfter(filters.to) : null;
  const until = next ? `${next}T00:00:00.000Z` : undefined;
  return {
    actor: filters.actor,
    action: filters.action,
    created_from: filters.from ? `${filters.from}T00:00:00.000Z` : undefined,
    created_until: until,
    starting_after: filters.after,
    limit,
  };
}
