import type { z } from "zod";
import {
  DomainError,
  InsufficientFundsError,
  InsufficientPayoutBalanceError,
  PayoutsDisabledError,
  ValidationError,
} from "@/lib/errors";
import { log } from "@/lib/log";
import { fieldErrors } from "@/lib/http/validation";
import type { Staff, StaffAction } from "@/lib/staff/current-staff";
import { staffMay } from "@/lib/staff/load-staff";

/**
 * What a dashboard or support-console form action answers the page: the interface's error shape
 * (`{error, message}`, plus the field messages of a validation failure) or what was done.
 */
export type StaffActionOutcome =
  | { ok: true; message: string }
  | { ok: false; error: string; message: string; fields?: Record<string, string[]> };
/** An outcome, or null before the form was sent (useActionState's initial state). */
export type StaffActionResult = StaffActionOutcome | null;

export const forbidden = (message = "Your role may not do this in this business"): StaffActionOutcome => ({
  ok: false,
  error: "forbidden",
  message,
});

/** A zod failure as a result: each field's messages, and all of them in one sentence. */
export function invalid(error: z.ZodError): StaffActionOutcome {
  const fields = fieldErrors(error);
  return { ok: false, error: "validation_failed", message: Object.values(fields).flat().join("; "), fields };
}

/**
 * The answer for a domain failure, with the API's wording where the interface fixes it (the payout
 * errors); an unexpected error is logged and answered without its details (nothing was changed:
 * every service call is one transaction).
 */
export function failure(error: unknown, context: Record<string, unknown>): StaffActionOutcome {
  if (error instanceof ValidationError)
    return { ok: false, error: error.code, message: Object.values(error.fields).flat().join("; "), fields: error.fields };
  if (error instanceof InsufficientPayoutBalanceError)
    return { ok: false, error: error.code, message: "Insufficient payout balance" };
  if (error instanceof PayoutsDisabledError)
    return { ok: false, error: error.code, message: "Payouts are currently disabled. Please enable them in Settings." };
  if (error instanceof InsufficientFundsError) return { ok: false, error: error.code, message: "Insufficient balance" };
  if (error instanceof DomainError) return { ok: false, error: error.code, message: error.message };
  log.error("staff action failed", { ...context, error });
  return { ok: false, error: "internal_error", message: "Something went wrong; nothing was changed. Try again." };
}

/**
 * The checks every dashboard write makes before it runs: the staff member's role may do `action`
 * in the business the form was shown for, and that business is still the one the dashboard shows
 * (a switch in another tab must not send this form to another business). Null when it may go on.
 */
export function refuseUnlessAllowed(staff: Staff, action: StaffAction, formBusinessId: unknown): StaffActionOutcome | null {
  if (typeof formBusinessId !== "string" || formBusinessId !== staff.businessId)
    return {
      ok: false,
      error: "business_changed",
      message: "The dashboard now shows another business (switched in another tab?); reload the page. Nothing was changed.",
    };
  if (!staffMay(staff, action, formBusinessId)) return forbidden();
  return null;
}
