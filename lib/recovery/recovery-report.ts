import { and, desc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payments, subscriptionCycles, subscriptions } from "@/db/schema";

/** A subscription whose last renewal failed: what is at risk until a retry or the payer pays it. */
export type AtRisk = {
  id: string;
  orderId: string;
  customer: string | null;
  /** Cents of the failed renewals still open. */
  amount: number;
  currency: string;
  cycle: number;
  failureCode: string | null;
  failedAt: string;
};

/** One month of failed renewals: how many were recovered (paid later), lost, or are still open. */
export type RecoveryMonth = {
  /** `2027-03`: the month the renewals failed (UTC). */
  month: string;
  failed: number;
  recovered: number;
  recoveredAmount: number;
  lost: number;
  lostAmount: number;
  open: number;
  /** recovered / (recovered + lost), 0..1; null while none is settled. */
  rate: number | null;
};

export type RecoveryReport = { atRisk: AtRisk[]; atRiskTotal: number; months: RecoveryMonth[] };

/**
 * The recovery view's numbers for a business. A renewal "failed" when its charge failed at least
 * once (failure_notified); it is recovered when it was paid afterwards (by the provider's retry or
 * by the payer on the invoice page), lost when its invoice was voided or the plan ended unpaid,
 * and open otherwise. `months` covers the last `monthsBack` months, newest first.
 */
export async function getRecoveryReport(db: Db, businessId: string, options: { monthsBack?: number; now?: Date } = {}): Promise<RecoveryReport> {
  const atRisk = await db
    .select({
      id: subscriptions.id,
      orderId: subscriptions.orderId,
      customer: sql<string | null>`coalesce(${subscriptions.customerEmail}, ${subscriptions.customer})`,
      amount: payments.amount,
      currency: subscriptions.currency,
      cycle: subscriptionCycles.cycle,
      failureCode: payments.failureCode,
      failedAt: subscriptionCycles.updatedAt,
    })
    .from(subscriptionCycles)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionCycles.subscriptionId))
    .innerJoin(payments, eq(payments.sessionId, subscriptionCycles.sessionId))
    .where(and(eq(subscriptions.businessId, businessId), eq(subscriptions.status, "past_due"), eq(subscriptionCycles.status, "failed")))
    .orderBy(desc(subscriptionCycles.updatedAt))
    .limit(100);
  const months = await recoveryMonths(db, businessId, options);
  return { atRisk, atRiskTotal: atRisk.reduce((sum, r) => sum + r.amount, 0), months };
}

async function recoveryMonths(db: Db, businessId: string, options: { monthsBack?: number; now?: Date }): Promise<RecoveryMonth[]> {
  const now = options.now ?? new Date();
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - ((options.monthsBack ?? 6) - 1), 1));
  const month = sql<string>`to_char(${subscriptionCycles.createdAt} at time zone 'UTC', 'YYYY-MM')`;
  const recovered = sql`${subscriptionCycles.status} = 'paid'`;
  const lost = sql`(${subscriptionCycles.status} = 'void' or (${subscriptionCycles.status} = 'failed' and ${subscriptions.status} = 'canceled'))`;
  const rows = await db
    .select({
      month,
      failed: sql<number>`count(*)::int`,
      recovered: sql<number>`(count(*) filter (where ${recovered}))::int`,
      recoveredAmount: sql<number>`coalesce(sum(${payments.amount}) filter (where ${recovered}), 0)::bigint`,
      lost: sql<number>`(count(*) filter (where ${lost}))::int`,
      lostAmount: sql<number>`coalesce(sum(${payments.amount}) filter (where ${lost}), 0)::bigint`,
    })
    .from(subscriptionCycles)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionCycles.subscriptionId))
    .innerJoin(payments, eq(payments.sessionId, subscriptionCycles.sessionId))
    .where(and(eq(subscriptions.businessId, businessId), eq(subscriptionCycles.failureNotified, true), gte(subscriptionCycles.createdAt, from.toISOString())))
    .groupBy(month);
  const byMonth = new Map(rows.map((r) => [r.month, r]));
  const result: RecoveryMonth[] = [];
  for (let i = 0; i < (options.monthsBack ?? 6); i++) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    const key = d.toISOString().slice(0, 7);
    const r = byMonth.get(key);
    const counts = {
      failed: r?.failed ?? 0,
      recovered: r?.recovered ?? 0,
      recoveredAmount: Number(r?.recoveredAmount ?? 0),
      lost: r?.lost ?? 0,
      lostAmount: Number(r?.lostAmount ?? 0),
    };
    const settled = counts.recovered + counts.lost;
    result.push({ month: key, ...counts, open: counts.failed - settled, rate: settled ? counts.recovered / settled : null });
  }
  return result;
}
