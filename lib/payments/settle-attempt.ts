import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { selectStatement } from "@/db/statement-per-db";
import {
  payments,
  refunds,
  type Business,
  type Payment,
  type PaymentAttempt,
  type Session,
} from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { fraudSettingsOf } from "@/lib/fraud/fraud-settings";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { log } from "@/lib/log";
import { notifyPaymentHeld } from "@/lib/mail/notify-owners";
import { announcePaymentSucceeded } from "@/lib/subscriptions/start-subscription";
import { toDbTime } from "@/lib/time";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";
import {
  creditBusiness,
  findAttempt,
  lockAttempt,
  lockSession,
  rememberProviderObject,
  updateAttemptRow,
  updatePaymentRow,
  type LockedSession,
} from "./payment-records";
import { executeRefundsNow } from "./refund/execute-refund";
import { reserveRefund } from "./refund/reserve-refund";
import { decideSettlement, type Settlement, type SettlePlan } from "./settle-decision";

export type { Settlement };

export type SettleResult = {
  payment: Payment | null;
  attempt: PaymentAttempt;
  changed: boolean;
  /** The session, read under its lock with the payment: the Payment object is made of the two. */
  session: Session;
  business: Business;
};

/** An attempt's id, or the attempt itself (its session is then known without reading it). */
export type AttemptRef = string | Pick<PaymentAttempt, "id" | "sessionId">;

/** Cents already refunded (or being refunded) as duplicates of one provider payment. */
async function duplicateRefunds(tx: Db, provider: string, providerPaymentId: string): Promise<number> {
  const [row] = await duplicateRefundsRow(tx, { provider, providerPaymentId });
  return row?.total ?? 0;
}

const p = (name: string) => sql.placeholder(name);
const duplicateRefundsRow = selectStatement("kassa_duplicate_refunds", (db) =>
  db
    .select({ total: sql<number>`coalesce(sum(${refunds.amount}), 0)::int` })
    .from(refunds)
    .where(
      and(
        eq(refunds.provider, p("provider")),
        eq(refunds.providerPaymentId, p("providerPaymentId")),
        eq(refunds.reason, "duplicate"),
        ne(refunds.status, "failed"),
      ),
    ),
);

/**
 * Applies a settlement's plan inside the transaction (under the session and attempt locks): the
 * attempt and payment updates, then a refund, then the credit and the events. Returns what the
 * settlement changed and the ids of refunds to execute after commit.
 */
async function applyPlan(
  tx: Db,
  locked: LockedSession & { attempt: PaymentAttempt },
  settlement: Settlement,
  plan: Extract<SettlePlan, { kind: "apply" }>,
): Promise<SettleResult & { refundIds: string[] }> {
  const { session, business, attempt } = locked;
  let payment = locked.payment;
  let nextAttempt = attempt;
  const refundIds: string[] = [];
  if (plan.attempt) {
    const [row] = await updateAttemptRow(tx, attempt.id, plan.attempt);
    nextAttempt = row!;
  }
  if (plan.payment && payment) {
    const [row] = await updatePaymentRow(tx, payment.id, plan.payment);
    payment = row!;
  }
  if (plan.refund && payment && "providerPaymentId" in settlement && settlement.providerPaymentId) {
    const refund = await reserveRefund(tx, {
      payment,
      provider: attempt.provider,
      providerPaymentId: settlement.providerPaymentId,
      amount: plan.refund.amount,
      reason: plan.refund.reason,
      ledgerAmount: 0,
    });
    refundIds.push(refund.id);
    if (plan.refund.reason === "fraud_declined") {
      const [reread] = await tx.select().from(payments).where(eq(payments.id, payment.id));
      payment = reread!;
    }
  }
  if (plan.outcome && payment) {
    const outcome = plan.outcome;
    if (outcome.kind === "succeeded") {
      await creditBusiness(tx, payment);
      await announcePaymentSucceeded(tx, { business, session, payment });
    } else if (outcome.kind === "event") {
      await emitWebhookEvent(tx, { business, session, payment, type: outcome.type });
      if (outcome.type === "pending_review")
        await notifyPaymentHeld(tx, business.id, session.id, attempt.amount);
    } else {
      await emitWebhookEvent(tx, {
        business,
        session,
        payment,
        type: "incomplete",
        amountRemaining: outcome.amountRemaining,
      });
    }
  }
  if (plan.warn) log.warn(plan.warn, { attemptId: attempt.id, sessionId: session.id });
  return { payment, attempt: nextAttempt, changed: plan.changed, refundIds, session, business };
}

/**
 * Records what a provider said about one attempt, in one transaction under the session's lock:
 * the attempt, the session's payment (when the attempt is the payment's current one), the ledger
 * credit, refunds, and the interface's events. Idempotent: a settlement that changes nothing
 * (the inbound event and the API answer both reporting the same success) does nothing. What to
 * do is decided by decideSettlement (./settle-decision.ts, pure); this reads the facts under the
 * locks, applies the plan, and executes its refunds after commit.
 */
export async function settleAttempt(
  db: Db,
  attemptRef: AttemptRef,
  settlement: Settlement,
): Promise<SettleResult> {
  const attemptId = typeof attemptRef === "string" ? attemptRef : attemptRef.id;
  // An attempt's session never changes: a caller holding the attempt saves its read.
  const known = typeof attemptRef === "string" ? await findAttempt(db, attemptRef) : attemptRef;
  if (!known) throw new Error(`No payment attempt ${attemptId}`);
  const { refundIds, ...result } = await transactionWithJobs(db, async (tx) => {
    const locked = await lockSession(tx, known.sessionId);
    const attempt = await lockAttempt(tx, attemptId);
    if (!attempt) throw new Error(`No payment attempt ${attemptId}`);
    const providerId = "providerPaymentId" in settlement ? settlement.providerPaymentId : null;
    const plan = decideSettlement({
      attempt,
      payment: locked.payment,
      settlement,
      // Only a charge of an attempt that is not the payment's current one can be a duplicate.
      duplicateRefunded:
        (settlement.kind === "awaiting_payer" ||
          (settlement.kind === "charged" && locked.payment?.attemptId !== attempt.id)) &&
        providerId
          ? await duplicateRefunds(tx, attempt.provider, providerId)
          : 0,
      fraudSettings: fraudSettingsOf(locked.business),
      // Completion times are the business's (a sandbox clock may be ahead of real time).
      now: toDbTime(businessNow(locked.business)),
    });
    if (plan.kind === "ignore") {
      const { session, business, payment } = locked;
      return { payment, attempt, changed: false, refundIds: [], session, business };
    }
    if (providerId && providerId !== attempt.providerPaymentId)
      await rememberProviderObject(tx, {
        provider: attempt.provider,
        objectId: providerId,
        businessId: attempt.businessId,
        kind: attempt.provider === "stripe" ? "payment_intent" : "payment",
        sessionId: attempt.sessionId,
        attemptId: attempt.id,
      });
    return applyPlan(tx, { ...locked, attempt }, settlement, plan);
  });
  await executeRefundsNow(db, refundIds);
  return result;
}
