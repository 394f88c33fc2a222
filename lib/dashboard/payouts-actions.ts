import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { businesses } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { setPayoutsEnabled } from "@/lib/businesses/set-payouts-enabled";
import { transferToPayoutBalance } from "@/lib/ledger/transfer-to-payout-balance";
import { formatMoney } from "@/lib/money";
import { createPayout } from "@/lib/payouts/create-payout";
import { createPayoutSchema, settleSchema } from "@/lib/payouts/payout-input";
import { deactivatePayoutUser, reactivatePayoutUser } from "@/lib/payouts/set-payout-user-status";
import { completeWithdrawal, rejectWithdrawal } from "@/lib/payouts/settle-withdrawal";
import type { Staff } from "@/lib/staff/current-staff";
import { staffActor, withAuditActor } from "@/lib/audit/audit-actor";
import { failure, invalid, refuseUnlessAllowed, type StaffActionResult } from "./staff-action";

/** Dollars as staff type them ("12.50", "12", "1,000.00"), as integer cents. */
export const dollarsField = (what: string) =>
  z
    .string({ error: `Enter the ${what}` })
    .trim()
    .transform((v) => v.replace(/,/g, ""))
    .pipe(z.string().regex(/^\d{1,9}(\.\d{1,2})?$/, { error: `Enter the ${what} in dollars, like 12.50` }))
    .transform((v) => Math.round(Number(v) * 100))
    .refine((cents) => cents > 0, { error: `The ${what} must be more than 0` });

const id = (prefix: string, what: string) => z.string({ error: `${what} is required` }).regex(new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`), { error: `Unknown ${what}` });
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v : undefined));

/** Every payout operation of the dashboard, as its form posts it (`intent` names it). */
export const payoutCommand = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("set_enabled"), enabled: z.enum(["true", "false"]).transform((v) => v === "true") }),
    z.object({ intent: z.literal("transfer"), amount: dollarsField("amount") }),
    z.object({ intent: z.literal("allocate"), email: z.string({ error: "email is required" }), amount: dollarsField("amount") }),
    z.object({ intent: z.literal("complete"), withdrawal_id: id("wd", "withdrawal"), settlement_reference: optionalText }),
    z.object({ intent: z.literal("reject"), withdrawal_id: id("wd", "withdrawal"), reason: optionalText }),
    z.object({ intent: z.enum(["deactivate", "reactivate"]), payout_user_id: id("pu", "payout user") }),
  ],
  { error: "Unknown operation" },
);
export type PayoutCommand = z.input<typeof payoutCommand>;

async function getBusiness(db: Db, businessId: string) {
  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId));
  if (!business) throw new NotFoundError("business_not_found", "No such business");
  return business;
}

/**
 * One payout operation from the dashboard for `staff`, in the business the form was shown for
 * (`form.business_id`): the same service functions, rules and error messages as the payout API.
 * Checked first: the role may do `payouts` there and it is still the business the dashboard
 * shows. Structured apart from Next (the server action only adds requireStaffFor), so tests call
 * it with any Staff.
 */
export async function runPayoutCommand(db: Db, staff: Staff, form: Record<string, unknown>): Promise<StaffActionResult> {
  return withAuditActor(staffActor(staff), () => runPayoutCommandAs(db, staff, form));
}

async function runPayoutCommandAs(db: Db, staff: Staff, form: Record<string, unknown>): Promise<StaffActionResult> {
  const refused = refuseUnlessAllowed(staff, "payouts", form.business_id);
  if (refused) return refused;
  const parsed = payoutCommand.safeParse(form);
  if (!parsed.success) return invalid(parsed.error);
  const command = parsed.data;
  const businessId = staff.businessId;
  const actor = staff.isAdmin ? "support" : "merchant";
  try {
    switch (command.intent) {
      case "set_enabled": {
        await setPayoutsEnabled(db, businessId, command.enabled);
        return {
          ok: true,
          message: command.enabled
            ? "Payouts are enabled: you can allocate funds to payout users."
            : "Payouts are disabled: allocations are refused (here and through the API) until you enable them again. Payout users keep their balances.",
        };
      }
      case "transfer": {
        const balances = await transferToPayoutBalance(db, businessId, command.amount);
        return {
          ok: true,
          message: `Moved ${formatMoney(command.amount)} to the payout balance (balance ${formatMoney(balances.balance)}, payout balance ${formatMoney(balances.payout_balance)}).`,
        };
      }
      case "allocate": {
        const input = createPayoutSchema.safeParse({ email: command.email, amount: command.amount });
        if (!input.success) return invalid(input.error);
        const created = await createPayout(db, await getBusiness(db, businessId), input.data);
        return {
          ok: true,
          message: `Allocated ${formatMoney(input.data.amount)} to ${input.data.email}${created.createdUser ? " (new payout user)" : ""}; their balance is ${formatMoney(created.balance)}. Their payout hash, to reach their balance and withdraw: ${created.hash}`,
        };
      }
      case "complete":
      case "reject": {
        const details = settleSchema.safeParse({ reason: command.intent === "reject" ? command.reason : undefined, settlement_reference: command.intent === "complete" ? command.settlement_reference : undefined });
        if (!details.success) return invalid(details.error);
        const ref = { businessId, withdrawalId: command.withdrawal_id };
        const settled =
          command.intent === "complete"
            ? await completeWithdrawal(db, ref, { settlementReference: details.data.settlement_reference }, actor)
            : await rejectWithdrawal(db, ref, { reason: details.data.reason }, actor);
        return {
          ok: true,
          message:
            settled.status === "completed"
              ? `Withdrawal of ${formatMoney(Number(settled.amount))} approved: marked as paid out.`
              : `Withdrawal of ${formatMoney(Number(settled.amount))} rejected: the funds are back in the user's balance.`,
        };
      }
      case "deactivate":
      case "reactivate": {
        const user =
          command.intent === "deactivate"
            ? await deactivatePayoutUser(db, businessId, command.payout_user_id)
            : await reactivatePayoutUser(db, businessId, command.payout_user_id);
        return {
          ok: true,
          message:
            user.status === "inactive"
              ? `${user.email} is deactivated: their hash answers 401 and no funds can be allocated to them. Their pending withdrawals can still be approved or rejected.`
              : `${user.email} is active again: the same hash works.`,
        };
      }
    }
  } catch (error) {
    return failure(error, { action: "payouts", intent: command.intent, businessId });
  }
}
