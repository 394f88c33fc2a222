import type { Db } from "@/db/client";
import { formatMoney } from "@/lib/money";
import { fourEyesWindowHours } from "@/lib/payouts/four-eyes-window";
import { allocateUnderFourEyes, completeUnderFourEyes, decidePayoutApproval, setApprovalThreshold, type ApprovalStaff } from "@/lib/payouts/payout-approvals";
import type { Staff } from "@/lib/staff/current-staff";
import { withMoney } from "./parse-money";
import { staffAction } from "./staff-action";

/** What an approval step answers its staffAction's `run`. */
type Done = { message: string };

const approvalStaff = (staff: Staff): ApprovalStaff => ({ userId: staff.userId, email: staff.email, actor: staff.isAdmin ? "support" : "merchant" });

/** The rule, in words, for the dashboard's messages (decisions 0078, 0061). */
export function fourEyesRule(threshold: number): string {
  return `Allocations to one payee, or withdrawal approvals for one payee, that come to more than ${formatMoney(threshold)} within ${fourEyesWindowHours} hours (each new one included) need a second staff member's approval.`;
}

const waitingMessage = (what: string, outcome: { windowTotal: number; threshold: number }) =>
  `${what} brings this payee's total for the last ${fourEyesWindowHours} hours to ${formatMoney(outcome.windowTotal)}, above the ${formatMoney(outcome.threshold)} threshold: it waits for another staff member's approval (listed under Approvals).`;

/**
 * A dashboard allocation under four eyes (decisions 0078, 0061): run at once, or recorded as a
 * request for a second staff member when the payee's total in the window passes the threshold.
 */
export async function allocateAs(db: Db, staff: Staff, input: { email: string; amount: number }): Promise<Done> {
  const outcome = await allocateUnderFourEyes(db, { businessId: staff.businessId, ...input, requester: approvalStaff(staff) });
  if ("waiting" in outcome) return { message: `${waitingMessage(`Allocating ${formatMoney(input.amount)} to ${input.email}`, outcome)} Nothing moved yet.` };
  const created = outcome.ran;
  return {
    message: `Allocated ${formatMoney(input.amount)} to ${input.email}${created.createdUser ? " (new payout user)" : ""}; their balance is ${formatMoney(created.balance)}. Their payout hash, to reach their balance and withdraw: ${created.hash}`,
  };
}

/** A dashboard withdrawal approval under four eyes, as allocateAs. */
export async function completeWithdrawalAs(db: Db, staff: Staff, input: { withdrawalId: string; settlementReference?: string | null }): Promise<Done> {
  const outcome = await completeUnderFourEyes(db, { businessId: staff.businessId, ...input, requester: approvalStaff(staff) });
  if ("waiting" in outcome) return { message: `${waitingMessage(`This withdrawal of ${formatMoney(outcome.waiting.amount)}`, outcome)} It is still pending.` };
  return { message: `Withdrawal of ${formatMoney(Number(outcome.ran.amount))} approved: marked as paid out.` };
}

/** Approves or rejects a request of another staff member. */
export async function decideApprovalCommand(db: Db, staff: Staff, approvalId: string, decision: "approve" | "reject"): Promise<Done> {
  const { approval, payout } = await decidePayoutApproval(db, { businessId: staff.businessId, approvalId, decider: approvalStaff(staff), decision });
  const what = approval.kind === "allocate" ? `allocation of ${formatMoney(approval.amount)} to ${String(approval.payload.email)}` : `withdrawal of ${formatMoney(approval.amount)}`;
  if (decision === "reject") return { message: `Rejected the ${what} asked by ${approval.requestedByEmail}: nothing moved.` };
  return {
    message:
      approval.kind === "allocate"
        ? `Approved the ${what} asked by ${approval.requestedByEmail}; their balance is ${formatMoney(payout!.balance)}. Their payout hash: ${payout!.hash}`
        : `Approved the ${what} asked by ${approval.requestedByEmail}: marked as paid out.`,
  };
}

/** The Team page's four-eyes threshold (owners and support), typed as the payouts' money is. */
export const saveApprovalThresholdAs = staffAction({
  permission: "team",
  schema: withMoney({}, { threshold: { what: "threshold", optional: true } }),
  run: async ({ db, businessId, input }) => {
    await setApprovalThreshold(db, businessId, input.threshold);
    return {
      message:
        input.threshold === null
          ? "No threshold: allocations and withdrawal approvals run at once."
          : `${fourEyesRule(input.threshold)} The one who asked never approves.`,
    };
  },
});
