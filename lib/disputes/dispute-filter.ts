import { and, desc, eq, exists, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { disputes, sessions, type DisputeStatus } from "@/db/schema";

/**
 * The payments list's and export's dispute filter (issue 41): `any` (disputed at all), `open`
 * (not decided yet), `needs_response` (evidence or acceptance due), `won`, `lost`. The payment's
 * own status stays the interface's (a disputed payment reads `succeeded`).
 */
export const paymentDisputeFilters = ["any", "open", "needs_response", "won", "lost"] as const;
export type PaymentDisputeFilter = (typeof paymentDisputeFilters)[number];

const statusesOf: Record<Exclude<PaymentDisputeFilter, "any">, readonly DisputeStatus[]> = {
  open: ["needs_response", "under_review", "warning_needs_response", "warning_under_review"],
  needs_response: ["needs_response", "warning_needs_response"],
  won: ["won", "warning_closed", "prevented"],
  lost: ["lost"],
};

/** The dispute statuses a filter keeps (all of them for `any`). */
export function disputeStatusesFor(filter: PaymentDisputeFilter): readonly DisputeStatus[] | null {
  return filter === "any" ? null : statusesOf[filter];
}

/** A condition on `sessions`: the session has a dispute the filter keeps. */
export function sessionDisputed(filter: PaymentDisputeFilter): SQL {
  const statuses = disputeStatusesFor(filter);
  return exists(
    sql`(SELECT 1 FROM ${disputes} WHERE ${and(
      eq(disputes.sessionId, sessions.id),
      eq(disputes.businessId, sessions.businessId),
      statuses ? inArray(disputes.status, [...statuses]) : undefined,
    )})`,
  );
}

/** A payment's dispute as lists show it beside the payment's status: the latest of its session. */
export type PaymentDispute = { id: string; status: DisputeStatus };

/** The latest dispute of each of these sessions (a charge is disputed at most once at Stripe). */
export async function disputesOfSessions(
  db: Db,
  businessId: string,
  sessionIds: string[],
): Promise<Map<string, PaymentDispute>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db
    .select({ id: disputes.id, sessionId: disputes.sessionId, status: disputes.status })
    .from(disputes)
    .where(and(eq(disputes.businessId, businessId), inArray(disputes.sessionId, sessionIds)))
    .orderBy(desc(disputes.id));
  const bySession = new Map<string, PaymentDispute>();
  for (const row of rows) if (!bySession.has(row.sessionId)) bySession.set(row.sessionId, { id: row.id, status: row.status });
  return bySession;
}
