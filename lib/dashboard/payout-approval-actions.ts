import type { Db } from "@/db/client";
import { formatMoney } from "@/lib/money";
import {
  approvalThresholdOf,
  decidePayoutApproval,
  needsApproval,
  requestAllocationApproval,
  requestWithdrawalApproval,
  setApprovalThreshold,
  type ApprovalStaff,
} from "@/lib/payouts/payout-approvals";
import type { Staff } from "@/lib/staff/current-staff";
import { withMoney } from "./parse-money";
import { staffAction } from "./staff-action";

/** What an approval step answers its staffAction's `run`. */
type Done = { message: string };

const approvalStaff = (staff: Staff): ApprovalStaff => ({ userId: staff.userId, email: staff.email, actor: staff.isAdmin ? "support" : "merchant" });

type Operation =
  | { kind: "allocate"; email: string; amount: number }
  | { kind: "complete_withdrawal"; withdrawalId: string; settlementReference?: string | null };

/**
 * Four eyes (decision 0044b): when the business set a threshold and the operation's amount is
 * above it, records a request for a second staff member and answers what happened; null when
 * the operation may run at once. Withdrawal amounts are read from the withdrawal.
 */
export async function askSecondApproval(db: Db, staff: Staff, operation: Operation): Promise<Done | null> {
  const threshold = await approvalThresholdOf(db, staff.businessId);
  if (threshold === null) return null;
  if (operation.kind === "allocate") {
    if (!needsApproval(threshold, operation.amount)) return null;
    await requestAllocationApproval(db, { businessId: staff.businessId, email: operation.email, amount: operation.amount, requester: approvalStaff(staff) });
    return {
      message: `Allocating ${formatMoney(operation.amount)} to ${operation.email} is above ${formatMoney(threshold)}: it waits for another staff member's approval (listed under Approvals). Nothing moved yet.`,
    };
  }
  const request = await requestWithdrawalApproval(db, {
    businessId: staff.businessId,
    withdrawalId: operation.withdrawalId,
    settlementReference: operation.settlementReference,
    requester: approvalStaff(staff),
    threshold,
  });
  if (!request) return null;
  return {
    message: `This withdrawal of ${formatMoney(request.amount)} is above ${formatMoney(threshold)}: its approval waits for another staff member (listed under Approvals). It is still pending.`,
  };
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
          : `Allocations and withdrawal approvals above ${formatMoney(input.threshold)} now need a second staff member's approval.`,
    };
  },
});
