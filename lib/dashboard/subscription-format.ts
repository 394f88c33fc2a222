import { resumeRefusal } from "@/lib/subscriptions/resume-refusal";
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
  manager: "the business's dashboard: an owner or manager (manager)",
  admin: "service support (admin)",
  payer: "the customer (payer)",
  provider: "the billing provider (provider)",
  system: "Kassa (system)",
};

const actorShortLabels: Record<NonNullable<SubscriptionView["canceled_by"]>, string> = {
  api: "by the business's API",
  manager: "in the business's dashboard",
  admin: "by support",
  payer: "by the customer",
  provider: "by the billing provider",
  system: "by Kassa",
};

/** Who canceled or asked to, in words for a badge ("by the customer"); the interface's value stays in the detail. */
export function actorShortLabel(actor: SubscriptionView["canceled_by"]): string {
  return actor ? actorShortLabels[actor] : "";
}

/** Who canceled or asked to: the interface's value with what it means. */
export function actorLabel(actor: SubscriptionView["canceled_by"]): string {
  return actor ? actorLabels[actor] : "—";
}

/**
 * Why the dashboard cannot withdraw a scheduled cancellation, before trying: the service's own rule
 * and words (it refuses it anyway). Support acts as `admin`, other staff as `manager`.
 */
export function resumeBlockedReason(s: Pick<SubscriptionView, "cancel_requested_by">, isSupport: boolean): string | null {
  const refusal = resumeRefusal(isSupport ? "admin" : "manager", s.cancel_requested_by);
  return refusal ? `${refusal}.` : null;
}
