import { and, asc, desc, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, disputes, failingEvent, payments, sessions, webhookEvents, type DisputeStatus, type WebhookEvent } from "@/db/schema";
import { answerableStatuses } from "@/lib/disputes/dispute-view";
import { businessNow } from "@/lib/clock";
import { NotFoundError } from "@/lib/errors";
import { getBalanceSummary } from "@/lib/ledger/get-balances";
import { listedPayments, type ListedPayment } from "./list-payments";
import { isoMicros, toDbTime } from "@/lib/time";

export type VolumeDay = {
  /** UTC day, `2026-11-23`. */
  day: string;
  /** Cents of succeeded payments completed that day (gross, refunds not subtracted). */
  volume: number;
  count: number;
};

export type FailingDelivery = {
  id: string;
  type: WebhookEvent["type"];
  status: WebhookEvent["status"];
  sessionId: string | null;
  orderId: string | null;
  attempts: number;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
};

/** A dispute waiting for the merchant's answer (evidence or acceptance), as Stripe's home lists them. */
export type DisputeNeedingResponse = {
  id: string;
  sessionId: string;
  orderId: string;
  amount: number;
  reason: string;
  status: DisputeStatus;
  /** ISO 8601 UTC; null when the provider gave none. */
  evidenceDueBy: string | null;
};

export type Overview = {
  currency: string;
  balance: number;
  payoutBalance: number;
  /** Cents owed after a dispute withdrawal the balance could not cover (0: nothing owed). */
  amountOwed: number;
  days: VolumeDay[];
  recentPayments: ListedPayment[];
  waitingForReview: ListedPayment[];
  failingDeliveries: FailingDelivery[];
  /** Whether the business has a webhook URL: without one, no delivery can fail (nor be made). */
  webhookEndpointSet: boolean;
  /** Disputes needing a response, the one due soonest first (at most 20). */
  disputesNeedingResponse: DisputeNeedingResponse[];
};

/** The business's disputes waiting for evidence or acceptance, the one due soonest first. */
async function disputesNeedingResponse(db: Db, businessId: string): Promise<DisputeNeedingResponse[]> {
  const rows = await db
    .select({ dispute: disputes, orderId: sessions.orderId })
    .from(disputes)
    .innerJoin(sessions, eq(sessions.id, disputes.sessionId))
    .where(and(eq(disputes.businessId, businessId), inArray(disputes.status, [...answerableStatuses])))
    .orderBy(sql`${disputes.evidenceDueBy} asc nulls last`, asc(disputes.id))
    .limit(20);
  return rows.map(({ dispute: d, orderId }) => ({
    id: d.id,
    sessionId: d.sessionId,
    orderId,
    amount: d.amount,
    reason: d.reason,
    status: d.status,
    evidenceDueBy: d.evidenceDueBy ? isoMicros(d.evidenceDueBy) : null,
  }));
}

/**
 * What the dashboard's overview shows for a business: balances, succeeded volume and count per
 * day over the last `days` days (the business's clock, so a sandbox clock moved ahead shows its
 * renewals), the latest payments, those held for review, webhook events that failed or are
 * being retried after an error, and disputes waiting for a response.
 */
export async function getOverview(db: Db, businessId: string, options: { days?: number; recent?: number } = {}): Promise<Overview> {
  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId));
  if (!business) throw new NotFoundError("business_not_found", "No such business");
  const dayCount = Math.min(Math.max(Math.trunc(options.days ?? 30), 1), 366);
  const now = businessNow(business);
  const firstDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (dayCount - 1)));
  const completed = sql`coalesce(${payments.completedAt}, ${payments.createdAt})`;

  const [balances, perDay, recent, review, failing, answerable] = await Promise.all([
    getBalanceSummary(db, businessId),
    db
      .select({
        day: sql<string>`to_char((${completed}) at time zone 'UTC', 'YYYY-MM-DD')`,
        volume: sql<string>`sum(${payments.amount})`,
        count: sql<string>`count(*)`,
      })
      .from(payments)
      .where(and(eq(payments.businessId, businessId), eq(payments.status, "succeeded"), gte(completed, toDbTime(firstDay))))
      .groupBy(sql`1`),
    db
      .select({ session: sessions, payment: payments })
      .from(payments)
      .innerJoin(sessions, eq(sessions.id, payments.sessionId))
      .where(eq(payments.businessId, businessId))
      .orderBy(desc(payments.updatedAt), desc(payments.id))
      .limit(options.recent ?? 5),
    db
      .select({ session: sessions, payment: payments })
      .from(payments)
      .innerJoin(sessions, eq(sessions.id, payments.sessionId))
      .where(and(eq(payments.businessId, businessId), eq(payments.status, "pending_review")))
      .orderBy(desc(payments.id))
      .limit(20),
    db
      .select()
      .from(webhookEvents)
      // failingEvent: the predicate of webhook_events_failing_idx, walked in id order.
      .where(and(eq(webhookEvents.businessId, businessId), failingEvent(webhookEvents)))
      .orderBy(desc(webhookEvents.id))
      .limit(10),
    disputesNeedingResponse(db, businessId),
  ]);

  const byDay = new Map(perDay.map((r) => [r.day, { volume: Number(r.volume), count: Number(r.count) }]));
  const days: VolumeDay[] = [];
  for (let i = 0; i < dayCount; i++) {
    const day = new Date(firstDay.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    days.push({ day, volume: byDay.get(day)?.volume ?? 0, count: byDay.get(day)?.count ?? 0 });
  }

  return {
    currency: "USD",
    balance: balances.balance,
    payoutBalance: balances.payoutBalance,
    amountOwed: balances.amountOwed,
    days,
    recentPayments: await listedPayments(db, business, recent),
    waitingForReview: await listedPayments(db, business, review),
    failingDeliveries: failing.map((e) => ({
      id: e.id,
      type: e.type,
      status: e.status,
      sessionId: e.sessionId,
      orderId: e.orderId,
      attempts: e.attemptCount,
      lastError: e.lastError,
      lastAttemptAt: e.lastAttemptAt ? isoMicros(e.lastAttemptAt) : null,
      nextAttemptAt: e.nextAttemptAt ? isoMicros(e.nextAttemptAt) : null,
    })),
    webhookEndpointSet: Boolean(business.webhookUrl),
    disputesNeedingResponse: answerable,
  };
}
