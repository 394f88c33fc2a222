import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, payoutApprovals, payoutWithdrawals, type PayoutApproval, type WithdrawalActor } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { isUniqueViolation } from "@/lib/db-errors";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { formatMoney } from "@/lib/money";
import { isoMicros } from "@/lib/time";
import { createPayout, type CreatedPayout } from "./create-payout";
import { completeWithdrawal } from "./settle-withdrawal";

/** Four eyes on money leaving (decision 0044b): who asks, who decides. */
export type ApprovalStaff = { userId: string; email: string; actor: WithdrawalActor };

/** Largest threshold staff can set: $10,000,000.00. */
export const maxApprovalThresholdCents = 1_000_000_000;

/** Sets (cents) or clears (null) the amount above which allocations and withdrawal approvals wait for a second staff member. */
export async function setApprovalThreshold(db: Db, businessId: string, cents: number | null): Promise<void> {
  if (cents !== null && (!Number.isInteger(cents) || cents < 0 || cents > maxApprovalThresholdCents))
    throw ValidationError.field("threshold", `The amount must be from $0.00 to ${formatMoney(maxApprovalThresholdCents)}`);
  await db.transaction(async (tx) => {
    const [before] = await tx.select({ threshold: businesses.approvalThresholdCents }).from(businesses).where(eq(businesses.id, businessId)).for("update");
    if (!before) throw new NotFoundError("business_not_found", "No such business");
    await tx.update(businesses).set({ approvalThresholdCents: cents }).where(eq(businesses.id, businessId));
    await recordAudit(tx, {
      businessId,
      action: "business.approval_threshold_update",
      target: { type: "business", id: businessId },
      changes: { approval_threshold_cents: { from: before.threshold, to: cents } },
    });
  });
}

/** The audit record of a request for a second staff member's approval, in the request's transaction. */
const auditRequest = (tx: Db, row: PayoutApproval) =>
  recordAudit(tx, {
    businessId: row.businessId,
    action: "payout_approval.request",
    target: { type: "payout_approval", id: row.id },
    changes: {
      kind: { from: null, to: row.kind },
      amount: { from: null, to: row.amount },
      ...Object.fromEntries(Object.entries(row.payload).map(([field, value]) => [field, { from: null, to: value }])),
    },
  });

export async function approvalThresholdOf(db: Db, businessId: string): Promise<number | null> {
  const [row] = await db.select({ threshold: businesses.approvalThresholdCents }).from(businesses).where(eq(businesses.id, businessId));
  return row?.threshold ?? null;
}

/** Whether an amount needs a second staff member's approval under the threshold (above it, strictly). */
export function needsApproval(threshold: number | null, amount: number): boolean {
  return threshold !== null && amount > threshold;
}

export type ApprovalView = Omit<PayoutApproval, "createdAt" | "decidedAt"> & { createdAt: string; decidedAt: string | null };

const viewOf = (a: PayoutApproval): ApprovalView => ({ ...a, createdAt: isoMicros(a.createdAt), decidedAt: a.decidedAt ? isoMicros(a.decidedAt) : null });

/** The business's approval requests, pending first then newest (at most 50). */
export async function listPayoutApprovals(db: Db, businessId: string): Promise<ApprovalView[]> {
  const rows = await db
    .select()
    .from(payoutApprovals)
    .where(eq(payoutApprovals.businessId, businessId))
    .orderBy(sql`${payoutApprovals.status} = 'pending' desc`, desc(payoutApprovals.createdAt))
    .limit(50);
  return rows.map(viewOf);
}

/** An allocation above the threshold, waiting: nothing moves until another staff member approves. */
export async function requestAllocationApproval(db: Db, input: { businessId: string; email: string; amount: number; requester: ApprovalStaff }): Promise<ApprovalView> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(payoutApprovals)
      .values({ id: newId("payoutApproval"), businessId: input.businessId, kind: "allocate", amount: input.amount, payload: { email: input.email }, requestedBy: input.requester.userId, requestedByEmail: input.requester.email })
      .returning();
    await auditRequest(tx, row!);
    return viewOf(row!);
  });
}

/**
 * A withdrawal's approval when its amount is above `threshold`: the request, waiting (one per
 * pending withdrawal); null when it is not above (the approval may run at once).
 */
export async function requestWithdrawalApproval(
  db: Db,
  input: { businessId: string; withdrawalId: string; settlementReference?: string | null; requester: ApprovalStaff; threshold: number | null },
): Promise<ApprovalView | null> {
  const [withdrawal] = await db
    .select()
    .from(payoutWithdrawals)
    .where(and(eq(payoutWithdrawals.id, input.withdrawalId), eq(payoutWithdrawals.businessId, input.businessId)));
  if (!withdrawal) throw new NotFoundError("withdrawal_not_found", "No withdrawal with this id");
  if (withdrawal.status !== "pending") throw new ConflictError("withdrawal_not_pending", `This withdrawal is already ${withdrawal.status}`);
  if (!needsApproval(input.threshold, Number(withdrawal.amount))) return null;
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(payoutApprovals)
        .values({
          id: newId("payoutApproval"),
          businessId: input.businessId,
          kind: "complete_withdrawal",
          amount: Number(withdrawal.amount),
          payload: { withdrawalId: withdrawal.id, settlementReference: input.settlementReference ?? null },
          requestedBy: input.requester.userId,
          requestedByEmail: input.requester.email,
        })
        .returning();
      await auditRequest(tx, row!);
      return viewOf(row!);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError("approval_already_requested", "This withdrawal already waits for a second staff member's approval.");
    throw error;
  }
}

export type ApprovalDecision = { approval: ApprovalView; payout?: CreatedPayout };

/**
 * Approves (runs the operation) or rejects a pending request, with the request locked first so
 * it is decided once. The one who asked cannot decide it (a CHECK holds the rule too). Approving
 * runs the same service as the direct operation, in the same transaction as the decision: when it
 * fails (balance too low meanwhile, withdrawal settled elsewhere) nothing is recorded.
 */
export async function decidePayoutApproval(
  db: Db,
  input: { businessId: string; approvalId: string; decider: ApprovalStaff; decision: "approve" | "reject" },
): Promise<ApprovalDecision> {
  return db.transaction(async (tx) => {
    const [request] = await tx
      .select()
      .from(payoutApprovals)
      .where(and(eq(payoutApprovals.id, input.approvalId), eq(payoutApprovals.businessId, input.businessId)))
      .for("update");
    if (!request) throw new NotFoundError("approval_not_found", "No such approval request");
    if (request.status !== "pending") throw new ConflictError("approval_decided", `This request is already ${request.status}.`);
    if (request.requestedBy === input.decider.userId)
      throw new ForbiddenError("four_eyes", "You asked for this operation: another staff member must approve or reject it.");
    let payout: CreatedPayout | undefined;
    if (input.decision === "approve") {
      if (request.kind === "allocate") {
        const [business] = await tx.select().from(businesses).where(eq(businesses.id, input.businessId));
        payout = await createPayout(tx, business!, { email: String(request.payload.email), amount: request.amount });
      } else {
        const settlementReference = typeof request.payload.settlementReference === "string" ? request.payload.settlementReference : null;
        await completeWithdrawal(tx, { businessId: input.businessId, withdrawalId: String(request.payload.withdrawalId) }, { settlementReference }, input.decider.actor);
      }
    }
    const [decided] = await tx
      .update(payoutApprovals)
      .set({ status: input.decision === "approve" ? "approved" : "rejected", decidedBy: input.decider.userId, decidedByEmail: input.decider.email, decidedAt: sql`now()` })
      .where(eq(payoutApprovals.id, request.id))
      .returning();
    return { approval: viewOf(decided!), payout };
  });
}
