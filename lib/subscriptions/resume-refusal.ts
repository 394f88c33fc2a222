import type { SubscriptionActor } from "@/db/schema";
import type { CancelActor } from "./cancel-subscription";

// A pure rule with type-only imports: the dashboard's client components use it too.

/**
 * Why `by` may not withdraw a cancellation `requestedBy` scheduled, or null when it may: only the
 * customer undoes the customer's; only service support the system's or its own; the business
 * (api, manager) its own or the provider dashboard's (`requestedBy` null); support any but the
 * customer's.
 */
export function resumeRefusal(by: CancelActor, requestedBy: SubscriptionActor | null): string | null {
  if (requestedBy === "payer")
    return by === "payer" ? null : "The customer scheduled this cancellation: only the customer can undo it";
  if (by === "admin") return null;
  if (requestedBy === "admin") return "This cancellation was scheduled by service support: only support can undo it";
  if (requestedBy === "system")
    return "Kassa (the system) scheduled this cancellation: only service support can undo it";
  if (by === "payer") return "The business scheduled this cancellation: only the business can undo it";
  return null;
}
