import type { DisputeStatus } from "@/db/schema";
import type { PaymentView } from "@/lib/payments/get-payment";

const dateTime = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});
const dateOnly = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** An ISO timestamp for staff, in UTC (the same on the server and in every browser): "Nov 23, 2026, 18:27 UTC". */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${dateTime.format(date)} UTC`;
}

/** A chart axis day: "2026-11-23" → "Nov 23". */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : dateOnly.format(date);
}

export type StatusTone = "success" | "warning" | "destructive" | "secondary" | "outline";

/** A payment's status as staff read it, and its colour: `null` is a session nobody has paid yet. */
export function paymentStatusLabel(
  status: PaymentView["status"],
  refund?: { amount: number; refunded: number },
): { label: string; tone: StatusTone } {
  // A succeeded payment refunded since: what the merchant needs to see where the list shows status.
  if (status === "succeeded" && refund && refund.refunded > 0)
    return refund.refunded >= refund.amount
      ? { label: "Refunded", tone: "outline" }
      : { label: "Partially refunded", tone: "warning" };
  switch (status) {
    case "succeeded":
      return { label: "Succeeded", tone: "success" };
    case "pending_review":
      return { label: "Waiting for review", tone: "warning" };
    case "pending":
      return { label: "Pending", tone: "secondary" };
    case "processing":
      return { label: "Processing", tone: "secondary" };
    case "failed":
      return { label: "Failed", tone: "destructive" };
    case "declined":
      return { label: "Declined", tone: "destructive" };
    case "expired":
      return { label: "Expired", tone: "outline" };
    default:
      return { label: "Open", tone: "outline" };
  }
}

/**
 * A payment's dispute as staff read it beside the payment's status (which stays the interface's:
 * `succeeded`), and its colour.
 */
export function paymentDisputeLabel(status: DisputeStatus): { label: string; tone: StatusTone } {
  const labels: Record<DisputeStatus, { label: string; tone: StatusTone }> = {
    needs_response: { label: "Disputed: needs response", tone: "destructive" },
    under_review: { label: "Disputed: under review", tone: "warning" },
    won: { label: "Dispute won", tone: "success" },
    lost: { label: "Dispute lost", tone: "destructive" },
    warning_needs_response: { label: "Inquiry: needs response", tone: "warning" },
    warning_under_review: { label: "Inquiry: under review", tone: "secondary" },
    warning_closed: { label: "Inquiry closed", tone: "outline" },
    prevented: { label: "Dispute prevented", tone: "outline" },
  };
  return labels[status];
}
