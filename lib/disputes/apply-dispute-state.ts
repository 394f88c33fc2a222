import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { disputes, type BookedDisputeMoney, type Dispute, type DisputeStatus } from "@/db/schema";
import { newId } from "@/lib/ids";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { postWithdrawal } from "@/lib/ledger/amount-owed";
import { postTransaction } from "@/lib/ledger/post-transaction";
import { lockSession } from "@/lib/payments/payment-records";
import type { ProviderDisputeState } from "@/lib/providers/stripe/stripe-disputes";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";
import { toDbTime } from "@/lib/time";
import { businessNow } from "@/lib/clock";
import { notifyDisputeOpened } from "./dispute-opened-notice";
import { disputeView, isClosedStatus } from "./dispute-view";
import { planDispute } from "./plan-dispute";

export type DisputeSubject = { businessId: string; sessionId: string; provider: string };

/** Kassa's record of the dispute, created (on the business's clock, `at`) if new, and locked. */
async function lockOrCreate(
  tx: Db,
  subject: DisputeSubject,
  state: ProviderDisputeState,
  at: string,
): Promise<Dispute> {
  await tx
    .insert(disputes)
    .values({
      id: newId("dispute"),
      businessId: subject.businessId,
      sessionId: subject.sessionId,
      provider: subject.provider,
      providerDisputeId: state.id,
      amount: state.amount,
      currency: state.currency.toUpperCase(),
      reason: state.reason,
      status: state.status as DisputeStatus,
      createdAt: at,
    })
    .onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(disputes)
    .where(
      and(
        eq(disputes.businessId, subject.businessId),
        eq(disputes.provider, subject.provider),
        eq(disputes.providerDisputeId, state.id),
      ),
    )
    .for("update");
  if (!row) throw new Error(`dispute ${state.id} neither inserted nor found`);
  return row;
}

/**
 * Posts one balance transaction of the dispute: a withdrawal (amount and fee) through
 * postWithdrawal (never fails, carries a shortfall as owed), a reinstatement as a credit (which
 * settles anything owed first).
 */
async function postMoney(tx: Db, dispute: Dispute, money: { id: string; net: number }) {
  if (money.net < 0) {
    const posted = await postWithdrawal(tx, {
      businessId: dispute.businessId,
      kind: "dispute_withdrawal",
      reference: dispute.id,
      amount: -money.net,
    });
    return posted.transactionId;
  }
  const posted = await postTransaction(tx, {
    businessId: dispute.businessId,
    kind: "dispute_reinstatement",
    reference: dispute.id,
    entries: [
      { account: { kind: "external" }, amount: -money.net },
      { account: { kind: "business_balance" }, amount: money.net },
    ],
  });
  return posted.transactionId;
}

/**
 * Applies a dispute as just read from the provider, in one transaction under the session's lock:
 * Kassa's record follows it, each of its balance transactions is posted to the ledger once, and
 * the merchant is told (webhooks `dispute_opened` and `dispute_closed`, once each; the owners'
 * e-mail on opening, written to the mail outbox in the same transaction). Idempotent: a
 * second reading of the same state changes nothing, so events may repeat or come in any order.
 */
export async function applyDisputeState(
  db: Db,
  subject: DisputeSubject,
  state: ProviderDisputeState,
  /** Run in the same transaction once applied (the audit record of the merchant's answer). */
  afterApplied?: (tx: Db, dispute: Dispute) => Promise<void>,
): Promise<Dispute> {
  return transactionWithJobs(db, async (tx) => {
    const { session, business, payment } = await lockSession(tx, subject.sessionId, subject.businessId);
    // Stamped on the business's clock (a sandbox's may run ahead), as payments and refunds are.
    const businessTime = toDbTime(businessNow(business));
    const row = await lockOrCreate(tx, subject, state, businessTime);
    const plan = planDispute(row, state);
    const booked: BookedDisputeMoney = [...row.booked];
    for (const money of plan.post)
      booked.push({ id: money.id, amount: money.net, ledgerTransactionId: await postMoney(tx, row, money) });
    const now = sql`now()`;
    const [updated] = await tx
      .update(disputes)
      .set({
        amount: state.amount,
        reason: state.reason,
        status: state.status as DisputeStatus,
        evidenceDueBy: state.dueBy ? toDbTime(new Date(state.dueBy * 1000)) : null,
        evidence: state.evidence,
        submissionCount: state.submissionCount,
        booked,
        closedAt: isClosedStatus(state.status) ? (row.closedAt ?? businessTime) : null,
        openedNotifiedAt: row.openedNotifiedAt ?? now,
        closedNotifiedAt: plan.notifyClosed ? now : row.closedNotifiedAt,
        updatedAt: now,
      })
      .where(eq(disputes.id, row.id))
      .returning();
    const current = updated!;
    const view = disputeView(current);
    if (plan.notifyOpened) {
      await notifyDisputeOpened(tx, current);
      await emitWebhookEvent(tx, {
        business,
        session,
        payment,
        type: "dispute_opened",
        dispute: view,
        dedupeKey: `dispute_opened:${current.id}`,
      });
    }
    if (plan.notifyClosed)
      await emitWebhookEvent(tx, {
        business,
        session,
        payment,
        type: "dispute_closed",
        dispute: view,
        dedupeKey: `dispute_closed:${current.id}`,
      });
    await afterApplied?.(tx, current);
    return current;
  });
}
