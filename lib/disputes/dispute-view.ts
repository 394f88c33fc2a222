import type { Dispute, DisputeStatus } from "@/db/schema";
import { isoMicros } from "@/lib/time";
import type { DisputeView } from "./dispute-schemas";

/** Ended: `won`, `lost`, an inquiry closed (`warning_closed`), or `prevented`. */
export const closedDisputeStatuses: readonly DisputeStatus[] = ["won", "lost", "warning_closed", "prevented"];

export const isClosedStatus = (status: string) =>
  (closedDisputeStatuses as readonly string[]).includes(status);

/** Open statuses where evidence can still be staged or submitted. */
export const answerableStatuses: readonly DisputeStatus[] = ["needs_response", "warning_needs_response"];

/**
 * A chargeback: the card network took the money back (every status but an inquiry's `warning_*`
 * and `prevented`). Stripe refuses to refund a charged-back charge (`charge_disputed`), whatever
 * the dispute's outcome; an inquiry's charge can still be refunded.
 */
export const isChargeback = (status: string) => !status.startsWith("warning_") && status !== "prevented";

/** The merchant's outcome: money back (`won`, an inquiry closed without chargeback) or not. */
export function outcomeOf(status: string): "won" | "lost" | null {
  if (status === "won" || status === "warning_closed" || status === "prevented") return "won";
  if (status === "lost") return "lost";
  return null;
}

export function disputeView(row: Dispute): DisputeView {
  return {
    id: row.id,
    session_id: row.sessionId,
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    outcome: outcomeOf(row.status),
    evidence_due_by: row.evidenceDueBy ? isoMicros(row.evidenceDueBy) : null,
    evidence: row.evidence,
    evidence_submitted: row.submissionCount > 0,
    created_at: isoMicros(row.createdAt),
  };
}
