import type { SubscriptionView } from "@/lib/subscriptions/subscription-view";
import type { StatusTone } from "./format";

/** A subscription's state as staff read it: `canceling` when active or past due with a cancellation scheduled. */
export function subscriptionStatusLabel(s: Pick<SubscriptionView, "status" | "cancel_at_period_end">): { label: string; tone: StatusTone } {
  if (s.status === "canceled") return { label: "Canceled", tone: "outline" };
  if (s.cancel_at_period_end) return { label: s.status === "past_due" ? "Past due, canceling" : "Canceling", tone: "warning" };
  if (s.status === "past_due") return { label: "Past due", tone: "destructive" };
  return { label: "Active", tone: "success" };
}

const actorLabels: Record<NonNullable<SubscriptionView["canceled_by"]>, string> = {
  api: "the business's backend (api)",
  manager: "the business's dashboard (manager)",
  admin: "service support (admin)",
  payer: "the customer (payer)",
  provider: "the billing provider (provider)",
  system: "Kassa (system)",
};

/** Who canceled or asked to: the interface's value with what it means. */
export function actorLabel(actor: SubscriptionView["canceled_by"]): string {
  return actor ? actorLabels[actor] : "—";
}

/**
 * Why the dashboard cannot withdraw a scheduled cancellation, before trying (the service refuses
 * it anyway, with the API's message): the customer's, support's and the system's are not the
 * business's to undo; support may undo any.
 */
export function resumeBlockedReason(s: Pick<SubscriptionView, "cancel_requested_by">, isSupport: boolean): string | null {
  if (isSupport) return null;
  if (s.cancel_requested_by === "payer") return "The customer scheduled this cancellation: only the customer can undo it.";
  if (s.cancel_requested_by === "admin" || s.cancel_requested_by === "system")
    return "Service support or Kassa scheduled this cancellation: only support can undo it.";
  return null;
}
