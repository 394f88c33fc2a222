import { and, eq, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, payments, subscriptions, type Business, type Subscription } from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { enqueueJob, transactionWithJobs } from "@/lib/jobs/enqueue-job";
import type { JobHandler } from "@/lib/jobs/job-outcome";
import { addInterval } from "@/lib/subscriptions/interval";
import { parseDbTime, toDbTime } from "@/lib/time";
import { noticeDueAt, noticesDue } from "./recovery-notices";
import { cardExpiringMail, renewalAheadMail } from "./recovery-text";
import { sendRecoveryMail } from "./send-recovery-mail";

/** The renewal a subscription is waiting for: its cycle, its date and the start of its period. */
function comingRenewal(subscription: Subscription): { cycle: number; renewsAt: Date; periodStart: Date } | null {
  if (!subscription.currentPeriodEnd) return null;
  const cycle = subscription.cyclesCount + 1;
  const anchor = parseDbTime(subscription.periodAnchor);
  const periodStart = addInterval(anchor, subscription.interval, subscription.intervalCount * (cycle - 2));
  return { cycle, renewsAt: parseDbTime(subscription.currentPeriodEnd), periodStart };
}

/**
 * Schedules the notices of a subscription's coming renewal (renewal ahead, card expiring): one
 * `recovery_notice` job, due on the business's clock `recoveryAheadDays` before the renewal.
 * Nothing when the business sends neither. Call it in the transaction that starts the period.
 */
export async function scheduleRecoveryNotice(tx: Db, business: Business, subscription: Subscription): Promise<void> {
  if (!business.recoveryAheadMail && !business.recoveryExpiryMail) return;
  const renewal = comingRenewal(subscription);
  if (!renewal || subscription.status === "canceled") return;
  const runAt = noticeDueAt(renewal.periodStart, renewal.renewsAt, business.recoveryAheadDays);
  await enqueueJob(tx, {
    kind: "recovery_notice",
    businessId: business.id,
    payload: { subscriptionId: subscription.id, cycle: renewal.cycle },
    runAt: toDbTime(runAt),
    businessClock: true,
    dedupeKey: `recovery_notice:${subscription.id}:${renewal.cycle}:${runAt.toISOString()}`,
    maxAttempts: 10,
  });
}

/** Schedules the notices of every subscription of a business not ended (the setting was turned on). */
export async function scheduleRecoveryNoticesOf(tx: Db, business: Business): Promise<void> {
  const rows = await tx
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.businessId, business.id), ne(subscriptions.status, "canceled")));
  for (const subscription of rows) await scheduleRecoveryNotice(tx, business, subscription);
}

/**
 * The `recovery_notice` job: under the subscription's lock, the notices its coming renewal gets
 * now (noticesDue), each once per cycle and kind (sendRecoveryMail). A job for a renewal that has
 * passed, or of a plan that ended, does nothing; one that runs early (the days setting shrank)
 * schedules itself again.
 */
export const recoveryNoticeJob: JobHandler = async (db, job) => {
  const subscriptionId = String(job.payload.subscriptionId ?? "");
  return transactionWithJobs(db, async (tx) => {
    const [subscription] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).for("update");
    if (!subscription) return { status: "done" as const, note: "no such subscription" };
    const [business] = await tx.select().from(businesses).where(eq(businesses.id, subscription.businessId));
    const renewal = comingRenewal(subscription);
    if (!business || !renewal || renewal.cycle !== Number(job.payload.cycle)) return { status: "done" as const, note: "renewal passed" };
    const now = businessNow(business);
    if (now < noticeDueAt(renewal.periodStart, renewal.renewsAt, business.recoveryAheadDays)) {
      await scheduleRecoveryNotice(tx, business, subscription);
      return { status: "done" as const, note: "not due yet: scheduled again" };
    }
    const [signup] = await tx.select({ details: payments.paymentDetails }).from(payments).where(eq(payments.id, subscription.initialPaymentId));
    const card = signup?.details?.card;
    const due = noticesDue({ business, subscription, ...renewal, now, card });
    for (const kind of due) {
      await sendRecoveryMail(tx, {
        business,
        subscription,
        cycle: renewal.cycle,
        kind,
        parts: (facts) =>
          kind === "renewal_ahead"
            ? renewalAheadMail(facts, renewal.renewsAt)
            : cardExpiringMail(facts, { brand: card!.brand, last4: card!.last4, expMonth: Number(card!.exp_month), expYear: Number(card!.exp_year) }, renewal.renewsAt),
      });
    }
    return { status: "done" as const, note: due.length ? `sent ${due.join(", ")}` : "nothing due" };
  });
};
