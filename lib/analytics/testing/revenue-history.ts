import { eq } from "drizzle-orm";
import fc from "fast-check";
import type { Db } from "@/db/client";
import {
  businesses,
  disputes,
  payments,
  refundReasons,
  refunds,
  sessions,
  subscriptionActors,
  subscriptionCycles,
  subscriptions,
} from "@/db/schema";
import { newId } from "@/lib/ids";
import { postWithdrawal } from "@/lib/ledger/amount-owed";
import { postTransaction } from "@/lib/ledger/post-transaction";
import { toDbTime } from "@/lib/time";

// Random histories for the analytics' property test (revenue-analytics.property.test.ts): payments
// in every status, refunds, disputes posted to the ledger, and subscriptions with every ending and
// renewal outcome, at times spread over five months around real now (the business's clock may be
// ahead of it: time travel). Rows are written as the services write them, stamps included.

const minute = 60_000;
const day = 1440 * minute;
/** Minutes within the history's five months; whole days often, to land on bucket edges. */
const at = fc.oneof(
  fc.integer({ min: 0, max: 150 * 1440 }),
  fc.integer({ min: 0, max: 150 }).map((d) => d * 1440),
);

const paymentArb = fc.record({
  amount: fc.integer({ min: 100, max: 50_000 }),
  feePercent: fc.integer({ min: 0, max: 10 }),
  status: fc.constantFrom("succeeded", "succeeded", "failed", "declined", "pending_review", "processing"),
  created: at,
  completedAfter: fc.option(fc.integer({ min: 0, max: 3000 })),
});
const refundArb = fc.record({
  payment: fc.nat(),
  percent: fc.integer({ min: 1, max: 100 }),
  status: fc.constantFrom("pending", "succeeded", "succeeded", "failed"),
  reason: fc.constantFrom(...refundReasons),
  created: at,
});
const disputeArb = fc.record({
  payment: fc.nat(),
  amount: fc.integer({ min: 100, max: 20_000 }),
  created: at,
  reinstated: fc.option(
    fc.record({ after: fc.integer({ min: 0, max: 20_000 }), percent: fc.integer({ min: 1, max: 100 }) }),
  ),
});
const cycleArb = fc.record({
  after: fc.integer({ min: 0, max: 60 * 1440 }),
  failureNotified: fc.boolean(),
  status: fc.constantFrom("open", "paid", "failed", "void"),
  paidAfter: fc.integer({ min: 0, max: 20 * 1440 }),
});
const subscriptionArb = fc.record({
  unitAmount: fc.integer({ min: 100, max: 100_000 }),
  interval: fc.constantFrom("day", "week", "month", "year"),
  intervalCount: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 12 })),
  customer: fc.constantFrom(null, "cus-a", "cus-b", "cus-c"),
  anchor: at,
  ended: fc.option(
    fc.record({
      after: fc.integer({ min: 0, max: 90 * 1440 }),
      by: fc.constantFrom(...subscriptionActors),
      reason: fc.constantFrom(
        "payment_failed",
        "requested_by_merchant",
        "requested_by_customer",
        "cancellation_requested",
        "admin",
      ),
    }),
  ),
  cycles: fc.array(cycleArb, { maxLength: 3 }),
});

export const historyArb = fc.record({
  payments: fc.array(paymentArb, { maxLength: 12 }),
  refunds: fc.array(refundArb, { maxLength: 6 }),
  disputes: fc.array(disputeArb, { maxLength: 3 }),
  subscriptions: fc.array(subscriptionArb, { maxLength: 10 }),
  /** How far the business's clock runs ahead of real time (a sandbox advanced), in days. */
  clockAheadDays: fc.integer({ min: 0, max: 60 }),
  query: fc.record({
    interval: fc.constantFrom("day", "week", "month"),
    from: fc.option(at),
    days: fc.integer({ min: 1, max: 160 }),
    until: fc.boolean(),
  }),
});
export type History = typeof historyArb extends fc.Arbitrary<infer T> ? T : never;

/** The history's first instant: 100 days before real now, at midnight UTC. */
export const historyStart = () => Math.floor(Date.now() / day) * day - 100 * day;

async function sessionAndPayment(
  db: Db,
  businessId: string,
  p: { amount: number; fees: number; status: string; created: number; completed: number | null },
) {
  const sessionId = newId("session");
  const paymentId = newId("payment");
  await db.insert(sessions).values({
    id: sessionId,
    businessId,
    amount: p.amount,
    currency: "USD",
    customer: "c",
    orderId: sessionId,
    items: [{ name: "x", quantity: 1, price: p.amount }],
    metadata: {},
    keyKind: "secret",
    expiresAt: toDbTime(new Date(p.created + day)),
    createdAt: toDbTime(new Date(p.created)),
  });
  await db.insert(payments).values({
    id: paymentId,
    sessionId,
    businessId,
    status: p.status as "succeeded",
    amount: p.amount,
    fees: p.fees,
    netAmount: p.amount - p.fees,
    createdAt: toDbTime(new Date(p.created)),
    completedAt: p.completed === null ? null : toDbTime(new Date(p.completed)),
  });
  return { sessionId, paymentId };
}

/** Ledger postings stamped at `ms` on the business's clock: the clock is set there first. */
async function atBusinessTime<T>(db: Db, businessId: string, ms: number, post: () => Promise<T>): Promise<T> {
  await db
    .update(businesses)
    .set({ clockOffsetMs: ms - Date.now() })
    .where(eq(businesses.id, businessId));
  return post();
}

async function writeDisputes(
  db: Db,
  businessId: string,
  h: History,
  paid: { sessionId: string }[],
  t0: number,
) {
  for (const d of h.disputes) {
    if (!paid.length) return;
    const id = newId("dispute");
    await db.insert(disputes).values({
      id,
      businessId,
      sessionId: paid[d.payment % paid.length]!.sessionId,
      provider: "stripe",
      providerDisputeId: id,
      amount: d.amount,
      currency: "usd",
      reason: "fraudulent",
      status: "needs_response",
      createdAt: toDbTime(new Date(t0 + d.created * minute)),
    });
    const withdrawn = d.amount + 1500;
    await atBusinessTime(db, businessId, t0 + d.created * minute, () =>
      postWithdrawal(db, { businessId, kind: "dispute_withdrawal", reference: id, amount: withdrawn }),
    );
    if (!d.reinstated) continue;
    const back = Math.max(1, Math.floor((d.amount * d.reinstated.percent) / 100));
    await atBusinessTime(db, businessId, t0 + (d.created + d.reinstated.after) * minute, () =>
      postTransaction(db, {
        businessId,
        kind: "dispute_reinstatement",
        reference: id,
        entries: [
          { account: { kind: "external" }, amount: -back },
          { account: { kind: "business_balance" }, amount: back },
        ],
      }),
    );
  }
}

async function writeSubscription(
  db: Db,
  businessId: string,
  s: History["subscriptions"][number],
  t0: number,
) {
  const anchor = t0 + s.anchor * minute;
  const signup = await sessionAndPayment(db, businessId, {
    amount: s.unitAmount,
    fees: 0,
    status: "succeeded",
    created: anchor,
    completed: anchor,
  });
  const id = newId("subscription");
  const ended = s.ended ? anchor + s.ended.after * minute : null;
  await db.insert(subscriptions).values({
    id,
    businessId,
    status: ended !== null ? "canceled" : s.cycles.some((c) => c.status === "failed") ? "past_due" : "active",
    amount: s.unitAmount,
    unitAmount: s.unitAmount,
    unitFees: 0,
    currency: "USD",
    interval: s.interval as "month",
    intervalCount: s.intervalCount,
    customer: s.customer,
    orderId: `order-${id}`,
    items: [],
    metadata: {},
    paymentMethod: "credit",
    provider: "stripe",
    providerSubscriptionId: `sub_${id}`,
    periodAnchor: toDbTime(new Date(anchor)),
    canceledAt: ended === null ? null : toDbTime(new Date(ended)),
    canceledBy: s.ended?.by ?? null,
    cancellationReason: s.ended?.reason ?? null,
    initialSessionId: signup.sessionId,
    initialPaymentId: signup.paymentId,
    managementTokenDigest: `digest-${id}`,
    createdAt: toDbTime(new Date(anchor)),
  });
  for (const [i, c] of s.cycles.entries()) {
    const opened = anchor + c.after * minute;
    const paidAt = c.status === "paid" ? opened + c.paidAfter * minute : null;
    const renewal = await sessionAndPayment(db, businessId, {
      amount: s.unitAmount,
      fees: 0,
      status: c.status === "paid" ? "succeeded" : c.status === "open" ? "processing" : "failed",
      created: opened,
      completed: paidAt,
    });
    await db.insert(subscriptionCycles).values({
      subscriptionId: id,
      cycle: i + 2,
      providerInvoiceId: `in_${id}_${i}`,
      sessionId: renewal.sessionId,
      status: c.status as "paid",
      failureNotified: c.failureNotified,
    });
  }
}

/** Writes a history for a business; returns the business's clock offset the query then runs at. */
export async function writeHistory(db: Db, businessId: string, h: History, t0: number): Promise<void> {
  const written = [];
  for (const p of h.payments) {
    const created = t0 + p.created * minute;
    const completed = p.completedAfter === null ? null : created + p.completedAfter * minute;
    const fees = Math.floor((p.amount * p.feePercent) / 100);
    written.push({
      ...(await sessionAndPayment(db, businessId, {
        amount: p.amount,
        fees,
        status: p.status,
        created,
        completed,
      })),
      amount: p.amount,
    });
  }
  for (const r of h.refunds) {
    if (!written.length) break;
    const p = written[r.payment % written.length]!;
    await db.insert(refunds).values({
      id: newId("refund"),
      businessId,
      paymentId: p.paymentId,
      sessionId: p.sessionId,
      provider: "stripe",
      providerPaymentId: "pi",
      amount: Math.max(1, Math.floor((p.amount * r.percent) / 100)),
      status: r.status as "pending",
      reason: r.reason,
      createdAt: toDbTime(new Date(t0 + r.created * minute)),
    });
  }
  await writeDisputes(db, businessId, h, written, t0);
  for (const s of h.subscriptions) await writeSubscription(db, businessId, s, t0);
  await db
    .update(businesses)
    .set({ clockOffsetMs: h.clockAheadDays * day })
    .where(eq(businesses.id, businessId));
}
