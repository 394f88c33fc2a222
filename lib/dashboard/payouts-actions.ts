import { z } from "zod";
import type { Db } from "@/db/client";
import { setPayoutsEnabled } from "@/lib/businesses/set-payouts-enabled";
import { transferToPayoutBalance } from "@/lib/ledger/transfer-to-payout-balance";
import { formatMoney } from "@/lib/money";
import { createPayoutSchema, settleSchema } from "@/lib/payouts/payout-input";
import { deactivatePayoutUser, reactivatePayoutUser } from "@/lib/payouts/set-payout-user-status";
import { rejectWithdrawal } from "@/lib/payouts/settle-withdrawal";
import type { Staff } from "@/lib/staff/current-staff";
import { withMoney } from "./parse-money";
import { allocateAs, completeWithdrawalAs, decideApprovalCommand } from "./payout-approval-actions";
import { staffAction, type ActionResult, type StaffActionRunner } from "./staff-action";

const id = (prefix: string, what: string) => z.string({ error: `${what} is required` }).regex(new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`), { error: `Unknown ${what}` });
/** A blank text field is absent; anything else meets the API's rule for it. */
const blankIsAbsent = <T extends z.ZodType>(rule: T) => z.preprocess((v) => (typeof v === "string" && !v.trim() ? undefined : v), rule);

const actorOf = (staff: Staff) => (staff.isAdmin ? "support" : "merchant");

const setEnabled = staffAction({
  permission: "payouts",
  schema: z.object({ enabled: z.enum(["true", "false"], { error: "Choose enabled or disabled" }).transform((v) => v === "true") }),
  run: async ({ db, businessId, input }) => {
    await setPayoutsEnabled(db, businessId, input.enabled);
    return {
      message: input.enabled
        ? "Payouts are enabled: you can allocate funds to payout users."
        : "Payouts are disabled: allocations are refused (here and through the API) until you enable them again. Payout users keep their balances.",
    };
  },
});

const transfer = staffAction({
  permission: "payouts",
  schema: withMoney({}, { amount: { what: "amount" } }),
  run: async ({ db, businessId, input }) => {
    const balances = await transferToPayoutBalance(db, businessId, input.amount);
    return {
      message: `Moved ${formatMoney(input.amount)} to the payout balance (balance ${formatMoney(balances.balance)}, payout balance ${formatMoney(balances.payout_balance)}).`,
    };
  },
});

// The API's own body rules (createPayoutSchema) after the typed amount is read as cents.
const allocate = staffAction({
  permission: "payouts",
  schema: withMoney({ email: z.string({ error: "email is required" }) }, { amount: { what: "amount" } }).pipe(createPayoutSchema),
  run: ({ db, staff, input }) => allocateAs(db, staff, input),
});

const withdrawal = id("wd", "withdrawal");

const complete = staffAction({
  permission: "payouts",
  schema: z.object({ withdrawal_id: withdrawal, settlement_reference: blankIsAbsent(settleSchema.shape.settlement_reference) }),
  run: ({ db, staff, input }) => completeWithdrawalAs(db, staff, { withdrawalId: input.withdrawal_id, settlementReference: input.settlement_reference }),
});

const reject = staffAction({
  permission: "payouts",
  schema: z.object({ withdrawal_id: withdrawal, reason: blankIsAbsent(settleSchema.shape.reason) }),
  run: async ({ db, staff, businessId, input }) => {
    const settled = await rejectWithdrawal(db, { businessId, withdrawalId: input.withdrawal_id }, { reason: input.reason ?? undefined }, actorOf(staff));
    return { message: `Withdrawal of ${formatMoney(Number(settled.amount))} rejected: the funds are back in the user's balance.` };
  },
});

const payoutUser = z.object({ payout_user_id: id("pu", "payout user") });

const deactivate = staffAction({
  permission: "payouts",
  schema: payoutUser,
  run: async ({ db, businessId, input }) => {
    const user = await deactivatePayoutUser(db, businessId, input.payout_user_id);
    return {
      message: `${user.email} is deactivated: their hash answers 401 and no funds can be allocated to them. Their pending withdrawals can still be approved or rejected.`,
    };
  },
});

const reactivate = staffAction({
  permission: "payouts",
  schema: payoutUser,
  run: async ({ db, businessId, input }) => {
    const user = await reactivatePayoutUser(db, businessId, input.payout_user_id);
    return { message: `${user.email} is active again: the same hash works.` };
  },
});

const approval = z.object({ approval_id: id("apr", "approval request") });

// Four eyes (decision 0078): another staff member decides a request above the threshold.
const approveRequest = staffAction({
  permission: "payouts",
  schema: approval,
  run: ({ db, staff, input }) => decideApprovalCommand(db, staff, input.approval_id, "approve"),
});

const rejectRequest = staffAction({
  permission: "payouts",
  schema: approval,
  run: ({ db, staff, input }) => decideApprovalCommand(db, staff, input.approval_id, "reject"),
});

/** Every payout operation of the dashboard, by the `intent` its form posts; each is one staffAction. */
export const payoutOperations = {
  set_enabled: setEnabled,
  transfer,
  allocate,
  complete,
  reject,
  deactivate,
  reactivate,
  approve_request: approveRequest,
  reject_request: rejectRequest,
} satisfies Record<string, StaffActionRunner>;

export type PayoutIntent = keyof typeof payoutOperations;

/** The operation a payout form names, or null for an unknown `intent`. */
export function payoutOperation(intent: unknown): StaffActionRunner | null {
  return typeof intent === "string" && Object.hasOwn(payoutOperations, intent) ? payoutOperations[intent as PayoutIntent] : null;
}

/**
 * One payout operation from the dashboard for `staff` (tests call it with any Staff): the operation
 * the form's `intent` names, run through staffAction with the payout API's rules and messages.
 */
export async function runPayoutCommand(db: Db, staff: Staff, form: Record<string, unknown>): Promise<ActionResult> {
  const operation = payoutOperation(form.intent);
  if (!operation) return { ok: false, error: "validation_failed", message: "Unknown operation", fields: { intent: ["Unknown operation"] } };
  return operation(db, staff, form);
}
