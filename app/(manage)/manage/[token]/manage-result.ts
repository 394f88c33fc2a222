import { ForbiddenError, SubscriptionNotFoundError, SubscriptionUpdateFailedError } from "@/lib/errors";

/** The outcome of a change, carried to the page in `?result=` after the redirect. */
export const manageResults = ["canceled", "resumed", "failed", "not_allowed", "changed"] as const;
export type ManageResult = (typeof manageResults)[number];

export function manageResultOf(value: unknown): ManageResult | null {
  return (manageResults as readonly unknown[]).includes(value) ? (value as ManageResult) : null;
}

/**
 * What the page says of a change that was refused (null: the token is unknown, the not-found page).
 * `changed`: the plan moved meanwhile (ended, past due, no longer scheduled; the page was
 * outdated), which a retry cannot help; the page shows it as it is now. `failed`: the provider
 * refused or could not be reached, or the row moved under the change: nothing changed, a retry may
 * work.
 */
export function manageOutcomeOf(error: unknown): ManageResult | null {
  if (error instanceof SubscriptionNotFoundError) return null;
  if (error instanceof ForbiddenError) return "not_allowed";
  if (error instanceof SubscriptionUpdateFailedError && error.reason === "conflict") return "changed";
  return "failed";
}
