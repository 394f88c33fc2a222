import { z } from "zod";
import type { Db } from "@/db/client";
import { staffActor, withAuditActor } from "@/lib/audit/audit-actor";
import {
  DomainError,
  InsufficientFundsError,
  InsufficientPayoutBalanceError,
  PayoutsDisabledError,
  ValidationError,
} from "@/lib/errors";
import { fieldErrors, unsafeTextField } from "@/lib/http/validation";
import { houseParse } from "@/lib/http/house-messages";
import { dashboardFields, dashboardMessage } from "./dashboard-words";
import { log } from "@/lib/log";
import type { Staff, StaffAction } from "@/lib/staff/current-staff";
import { staffMay } from "@/lib/staff/load-staff";

/**
 * What every dashboard and support-console write answers its form: a message (and what it made,
 * e.g. a key shown once), or the interface's error shape `{error, message}` with each field's
 * messages for bad input.
 */
export type ActionResult<T = undefined> =
  | { ok: true; message: string; data?: T }
  | { ok: false; error: string; message: string; fields?: Record<string, string[]> };
/** An answer, or null before the form was sent (useActionState's initial state). */
export type ActionState<T = undefined> = ActionResult<T> | null;

/** Who may run a write: a role's action in the business the dashboard shows, or service support (`/admin`). */
export type StaffPermission = StaffAction | "support";

/** What a write's `run` gets: the staff member acting (the one place it is known), the business, the input. */
export type StaffActionContext<I> = { db: Db; staff: Staff; businessId: string; input: I };

/** A write as tests and server actions call it, carrying the permission it needs. */
export type StaffActionRunner<T = undefined> = ((db: Db, staff: Staff, input: unknown) => Promise<ActionResult<T>>) & {
  readonly permission: StaffPermission;
};

/** The business id a dashboard form carries (the business the page was showing). */
export const businessIdField = z
  .string({ error: "business is required" })
  .regex(/^biz_[0-9A-Za-z]{1,64}$/, { error: "business is not a business id" });

export const onlySupport = "Only service support may use the support console";

export const forbidden = (message = "Your role may not do this in this business"): ActionResult<never> => ({
  ok: false,
  error: "forbidden",
  message,
});

const businessChanged: ActionResult<never> = {
  ok: false,
  error: "business_changed",
  message: "The dashboard now shows another business (switched in another tab?); reload the page. Nothing was changed.",
};

/** A zod failure as a result: each field's messages, and all of them in one sentence. */
export function invalid(error: z.ZodError): ActionResult<never> {
  return invalidFields(fieldErrors(error));
}

/** Field messages as the answer, in the dashboard's words (dollars, fields named for people). */
function invalidFields(apiFields: Record<string, string[]>): ActionResult<never> {
  const fields = dashboardFields(apiFields);
  return { ok: false, error: "validation_failed", message: Object.values(fields).flat().join("; "), fields };
}

/**
 * The answer for a domain failure, with the API's wording where the interface fixes it (the payout
 * errors); an unexpected error is logged and answered without its details (nothing was changed:
 * every service call is one transaction).
 */
export function failure(error: unknown, context: Record<string, unknown>): ActionResult<never> {
  if (error instanceof ValidationError) return invalidFields(error.fields);
  if (error instanceof InsufficientPayoutBalanceError) return { ok: false, error: error.code, message: "Insufficient payout balance" };
  if (error instanceof PayoutsDisabledError)
    return { ok: false, error: error.code, message: "Payouts are currently disabled. Please enable them in Settings." };
  if (error instanceof InsufficientFundsError) return { ok: false, error: error.code, message: "Insufficient balance" };
  if (error instanceof DomainError) return { ok: false, error: error.code, message: dashboardMessage(error.message) };
  log.error("staff action failed", { ...context, error });
  return { ok: false, error: "internal_error", message: "Something went wrong; nothing was changed. Try again." };
}

/**
 * Null when `staff` may run a write needing `permission`; else the refusal. A dashboard write must
 * also name (`input.business`) the business the dashboard still shows: a switch in another tab
 * must not send the form to another business. Support-console writes name their business in
 * their own input (any business: support).
 */
function refusal(staff: Staff, permission: StaffPermission, input: unknown): ActionResult<never> | null {
  if (permission === "support") return staff.isAdmin ? null : forbidden(onlySupport);
  const named = typeof input === "object" && input !== null ? (input as Record<string, unknown>).business : undefined;
  if (typeof named === "string" && named !== staff.businessId) return businessChanged;
  if (!staffMay(staff, permission, staff.businessId)) return forbidden();
  if (named === undefined) return invalidFields({ business: ["business is required"] });
  return null;
}

/**
 * The one wrapper of every dashboard and support-console write. Given the staff member (found by
 * the server action: serveStaffAction), it checks the role (and the business the form was shown
 * for), validates the input with `schema` (the API's own zod rules, and every kept string must be
 * text the database can hold), runs `run`, and maps DomainErrors to `{error, message}`: one result
 * type. Logic functions built on it are tested with any Staff and no request.
 */
export function staffAction<S extends z.ZodType, T = undefined>(spec: {
  permission: StaffPermission;
  schema: S;
  run: (context: StaffActionContext<z.infer<S>>) => Promise<{ message: string; data?: T }>;
}): StaffActionRunner<T> {
  const runner = async (db: Db, staff: Staff, input: unknown): Promise<ActionResult<T>> => {
    const refused = refusal(staff, spec.permission, input);
    if (refused) return refused;
    const parsed = spec.schema.safeParse(input, houseParse);
    if (!parsed.success) return invalid(parsed.error);
    const unsafe = unsafeTextField(parsed.data);
    if (unsafe) return invalidFields(unsafe);
    try {
      // Whatever the write changes is recorded as this staff member's (the audit log, decision 0045).
      const done = await withAuditActor(staffActor(staff), () => spec.run({ db, staff, businessId: staff.businessId, input: parsed.data }));
      return { ok: true, ...done };
    } catch (error) {
      return failure(error, { permission: spec.permission, businessId: staff.businessId, userId: staff.userId });
    }
  };
  return Object.assign(runner, { permission: spec.permission });
}

/** A FormData as a plain object (the first value of each name; a file where one is sent). */
export function formObject(form: FormData): Record<string, FormDataEntryValue> {
  const out: Record<string, FormDataEntryValue> = {};
  for (const [key, value] of form.entries()) if (!(key in out)) out[key] = value;
  return out;
}
