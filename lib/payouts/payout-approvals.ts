import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, payoutApprovals, payoutWithdrawals, type PayoutApproval, type PayoutWithdrawal, type WithdrawalActor } from "@/db/schema";
import { recordAudit } from "@/lib/audit/record-audit";
import { isUniqueViolation } from "@/lib/db-errors";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { formatMoney } from "@/lib/money";
import { isoMicros } from "@/lib/time";
import { createPayout, type CreatedPayout } from "./create-payout";
import { allocatedInWindow, lockPayee, payeeEmailOf, withdrawnInWindow } from "./four-eyes-window";
import { completeWithdrawal } from "./settle-withdrawal";

/** Four eyes on money leaving (decision 0078): who asks, who decides. */
export type ApprovalStaff = { userId: string; email: string; actor: WithdrawalActor };

/** Largest threshold staff can set: $10,000,000.00. */
export const maxApprovalThresholdCents = 1_000_000_000;

/**
 * Sets (cents) or clears (null) the amount above which a payee's allocations, or its withdrawal
 * approvals, within 24 hours wait for a second staff member (decisions 0078, 0061).
 */
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

/** The audit record of a decision on a request, under the staff member who decided (the request's own is under the one who asked). */
const auditDecision = (tx: Db, row: PayoutApproval) =>
  recordAudit(tx, {
    businessId: row.businessId,
    action: row.status === "approved" ? "payout_approval.approve" : "payout_approval.reject",
    target: { type: "payout_approval", id: row.id },
    changes: { status: { from: "pending", to: row.status } },
  });

/** The business's four-eyes threshold in cents; null: none. */
export async function approvalThresholdOf(db: Db, businessId: string): Promise<number | null> {
  const [row] = await db.select({ threshold: businesses.approvalThresholdCents }).from(businesses).where(eq(businesses.id, businessId));
  return row?.threshold ?? null;
}

/** Whether an amount (a payee's total in the window, this one included) needs a second staff member's approval: above the threshold, strictly. */
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

/** What a dashboard operation under four eyes did: ran, or waits for a second staff member. */
export type FourEyesOutcome<T> =
  | { ran: T }
  | {
      waiting: ApprovalView;
      /** The payee's total in the window (decision 0061), this operation included. */
      windowTotal: number;
      threshold: number;
    };

async function thresholdInTx(tx: Db, businessId: string) {
  const [business] = await tx.select().from(businesses).where(eq(businesses.id, businessId));
  if (!business) throw new NotFoundError("business_not_found", "No such business");
  return business;
}

/** Records a request for a second staff member's approval (and its audit record), in `tx`. */
async function insertRequest(
  tx: Db,
  input: { businessId: string; kind: PayoutApproval["kind"]; amount: number; payload: Record<string, unknown>; requester: ApprovalStaff },
): Promise<ApprovalView> {
  const [row] = await tx
    .insert(payoutApprovals)
    .values({
      id: newId("payoutApproval"),
      businessId: input.businessId,
      kind: input.kind,
      amount: input.amount,
      payload: input.payload,
      requestedBy: input.requester.userId,
      requestedByEmail: input.requester.email,
    })
    .returning();
  await auditRequest(tx, row!);
  return viewOf(row!);
}

/**
 * A dashboard allocation under four eyes (decisions 0078, 0061), in one transaction holding the
 * payee's lock: when the payee's allocations in the last 24 hours plus this one come to more than
 * the threshold, a request waits and nothing moves; otherwise the allocation runs, before the
 * lock is released, so two parallel allocations cannot both slip under.
 */
export async function allocateUnderFourEyes(
  db: Db,
  input: { businessId: string; email: string; amount: number; requester: ApprovalStaff },
): Promise<FourEyesOutcome<CreatedPayout>> {
  return db.transaction(async (tx) => {
    const business = await thresholdInTx(tx, input.businessId);
    const threshold = business.approvalThresholdCents;
    if (threshold !== null) {
      await lockPayee(tx, input.businessId, input.email);
      const windowTotal = (await allocatedInWindow(tx, input.businessId, input.email)) + input.amount;
      if (needsApproval(threshold, windowTotal)) {
        const waiting = await insertRequest(tx, { ...input, kind: "allocate", payload: { email: input.email } });
        return { waiting, windowTotal, threshold };
      }
    }
    return { ran: await createPayout(tx, business, { email: input.email, amount: input.amount }) };
  });
}

/**
 * A dashboard withdrawal approval under four eyes (decisions 0078, 0061), as allocations are: the
 * payee's withdrawals paid out in the last 24 hours plus this one, above the threshold, wait for a
 * second staff member (one request per pending withdrawal); otherwise it is paid out under the lock.
 */
export async function completeUnderFourEyes(
  db: Db,
  input: { businessId: string; withdrawalId: string; settlementReference?: string | null; requester: ApprovalStaff },
): Promise<FourEyesOutcome<PayoutWithdrawal>> {
  const ref = { businessId: input.businessId, withdrawalId: input.withdrawalId };
  try {
    return await db.transaction(async (tx) => {
      const threshold = (await thresholdInTx(tx, input.businessId)).approvalThresholdCents;
      if (threshold !== null) {
        const withdrawal = await pendingWithdrawal(tx, ref);
        await lockPayee(tx, input.businessId, await payeeEmailOf(tx, input.businessId, withdrawal.payoutUserId));
        const amount = Number(withdrawal.amount);
        const windowTotal = (await withdrawnInWindow(tx, input.businessId, withdrawal.payoutUserId)) + amount;
        if (needsApproval(threshold, windowTotal)) {
          const payload = { withdrawalId: withdrawal.id, settlementReference: input.settlementReference ?? null };
          const waiting = await insertRequest(tx, { businessId: input.businessId, kind: "complete_withdrawal", amount, payload, requester: input.requester });
          return { waiting, windowTotal, threshold };
        }
      }
      return { ran: await completeWithdrawal(tx, ref, { settlementReference: input.settlementReference ?? undefined }, input.requester.actor) };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError("approval_already_requested", "This withdrawal already waits for a second staff member's approval.");
    throw error;
  }
}

async function pendingWithdrawal(tx: Db, ref: { businessId: string; withdrawalId: string }): Promise<PayoutWithdrawal> {
  const [withdrawal] = await tx
    .select()
    .from(payoutWithdrawals)
    .where(and(eq(payoutWithdrawals.id, ref.withdrawalId), eq(payoutWithdrawals.businessId, ref.businessId)));
  if (!withdrawal) throw new NotFoundError("withdrawal_not_found", "No withdrawal with this id");
  if (withdrawal.status !== "pending") throw new ConflictError("withdrawal_not_pending", `This withdrawal is already ${withdrawal.status}`);
  return withdrawal;
}

/** Takes the lock of the payee a request pays (lockPayee), so its approval counts in the payee's window at once. */
async function lockPayeeOf(tx: Db, request: PayoutApproval): Promise<void> {
  if (request.kind === "allocate") return lockPayee(tx, request.businessId, String(request.payload.email));
  const [withdrawal] = await tx
    .select({ payoutUserId: payoutWithdrawals.payoutUserId })
    .from(payoutWithdrawals)
    .where(and(eq(payoutWithdrawals.id, String(request.payload.withdrawalId)), eq(payoutWithdrawals.businessId, request.businessId)));
  if (withdrawal) await lockPayee(tx, request.businessId, await payeeEmailOf(tx, request.businessId, withdrawal.payoutUserId));
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
      await lockPayeeOf(tx, request);
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
    await auditDecision(tx, decided!);
    return { approval: viewOf(decided!), payout };
  });
}
