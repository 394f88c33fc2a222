import { and, asc, desc, eq, gt, ilike, inArray, isNotNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, payments, sessions, subscriptions, webhookEvents, type Business, type WebhookEvent } from "@/db/schema";
import { paymentView, type PaymentView } from "@/lib/payments/get-payment";
import { subscriptionView, type SubscriptionView } from "@/lib/subscriptions/subscription-view";
import { isoMicros } from "@/lib/time";
import { redactedUrl } from "@/lib/webhooks/redacted-url";
import { containing } from "@/lib/sql-like";

// The support console's reads: across every business, for service support only (the guard is
// supportConsole in ./support-console.ts; these functions do not check who asks).

export const supportPageSize = 25;

/** A page of rows newest (or, for queues, oldest) first; `next` is the cursor of the next page. */
export type SupportPage<T> = { data: T[]; next: string | null };

export type BusinessRef = { id: string; name: string; mode: Business["mode"] };


function page<R, T>(rows: R[], limit: number, map: (row: R) => T, cursorOf: (row: R) => string): SupportPage<T> {
  const shown = rows.slice(0, limit);
  return { data: shown.map(map), next: rows.length > limit ? cursorOf(shown.at(-1)!) : null };
}

const businessRef = (b: Business): BusinessRef => ({ id: b.id, name: b.name, mode: b.mode });

export type BusinessSummary = BusinessRef & {
  isDemo: boolean;
  payoutsEnabled: boolean;
  /** Without a user:password it may carry (sent as Basic auth, never shown). */
  webhookUrl: string | null;
  createdAt: string;
};

/** Businesses, newest first: `q` is an id (exact) or part of the name (any case). */
export async function searchBusinesses(db: Db, query: { q?: string; after?: string } = {}, limit = supportPageSize): Promise<SupportPage<BusinessSummary>> {
  const q = query.q?.trim();
  const rows = await db
    .select()
    .from(businesses)
    .where(
      and(
        q ? or(eq(businesses.id, q), ilike(businesses.name, containing(q))) : undefined,
        query.after ? lt(businesses.id, query.after) : undefined,
      ),
    )
    .orderBy(desc(businesses.id))
    .limit(limit + 1);
  return page(
    rows,
    limit,
    (b) => ({ ...businessRef(b), isDemo: b.isDemo, payoutsEnabled: b.payoutsEnabled, webhookUrl: redactedUrl(b.webhookUrl), createdAt: isoMicros(b.createdAt) }),
    (b) => b.id,
  );
}

/** One business by id, or null. */
export async function findBusiness(db: Db, businessId: string): Promise<Business | null> {
  const [row] = await db.select().from(businesses).where(eq(businesses.id, businessId));
  return row ?? null;
}

export type SupportPayment = { business: BusinessRef; payment: PaymentView };

/**
 * Payments of every business, newest first: `q` is a session id (exact) or an order id (exact,
 * or part of it, any case). Without `q`, the latest payments. Unpaid sessions are included (as
 * GET /payment shows them: status null, or expired).
 */
export async function searchPayments(db: Db, query: { q?: string; after?: string } = {}, limit = supportPageSize): Promise<SupportPage<SupportPayment>> {
  const q = query.q?.trim();
  const conditions: (SQL | undefined)[] = [query.after ? lt(sessions.id, query.after) : undefined];
  if (q) conditions.push(or(eq(sessions.id, q), ilike(sessions.orderId, containing(q))));
  const rows = await db
    .select({ session: sessions, payment: payments, business: businesses })
    .from(sessions)
    .innerJoin(businesses, eq(businesses.id, sessions.businessId))
    .leftJoin(payments, eq(payments.sessionId, sessions.id))
    .where(and(...conditions))
    .orderBy(desc(sessions.id))
    .limit(limit + 1);
  return page(
    rows,
    limit,
    (r) => ({ business: businessRef(r.business), payment: paymentView(r.session, r.payment, r.business) }),
    (r) => r.session.id,
  );
}

/** Payments held for review (`pending_review`) in every business, the longest waiting first. */
export async function listReviewQueue(db: Db, query: { after?: string } = {}, limit = supportPageSize): Promise<SupportPage<SupportPayment>> {
  const rows = await db
    .select({ session: sessions, payment: payments, business: businesses })
    .from(payments)
    .innerJoin(sessions, eq(sessions.id, payments.sessionId))
    .innerJoin(businesses, eq(businesses.id, payments.businessId))
    .where(and(eq(payments.status, "pending_review"), query.after ? gt(payments.id, query.after) : undefined))
    .orderBy(asc(payments.id))
    .limit(limit + 1);
  return page(
    rows,
    limit,
    (r) => ({ business: businessRef(r.business), payment: paymentView(r.session, r.payment, r.business) }),
    (r) => r.payment.id,
  );
}

export type SupportSubscription = { business: BusinessRef; subscription: SubscriptionView };

/**
 * Subscriptions of every business, newest first: `q` is a subscription id, the provider's
 * subscription id or the signup session id (exact), or part of an order id, customer or customer
 * e-mail (any case).
 */
export async function searchSubscriptions(db: Db, query: { q?: string; after?: string } = {}, limit = supportPageSize): Promise<SupportPage<SupportSubscription>> {
  const q = query.q?.trim();
  const like = q ? containing(q) : "";
  const rows = await db
    .select({ subscription: subscriptions, business: businesses })
    .from(subscriptions)
    .innerJoin(businesses, eq(businesses.id, subscriptions.businessId))
    .where(
      and(
        q
          ? or(
              eq(subscriptions.id, q),
              eq(subscriptions.providerSubscriptionId, q),
              eq(subscriptions.initialSessionId, q),
              ilike(subscriptions.orderId, like),
              ilike(subscriptions.customer, like),
              ilike(subscriptions.customerEmail, like),
            )
          : undefined,
        query.after ? lt(subscriptions.id, query.after) : undefined,
      ),
    )
    .orderBy(desc(subscriptions.id))
    .limit(limit + 1);
  return page(rows, limit, (r) => ({ business: businessRef(r.business), subscription: subscriptionView(r.subscription) }), (r) => r.subscription.id);
}

export type FailedDelivery = {
  business: BusinessRef;
  id: string;
  type: WebhookEvent["type"];
  /** `failed`: every attempt of its round failed; `pending`: an attempt failed, another is due. */
  status: WebhookEvent["status"];
  sessionId: string | null;
  subscriptionId: string | null;
  orderId: string | null;
  attempts: number;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
};

/**
 * Webhook events whose delivery failed, in every business, newest first: failed for good, and,
 * with `includeRetrying`, those whose last attempt failed and that are waiting for a retry.
 */
export async function listFailedDeliveries(
  db: Db,
  query: { includeRetrying?: boolean; businessId?: string; after?: string } = {},
  limit = supportPageSize,
): Promise<SupportPage<FailedDelivery>> {
  const failing = query.includeRetrying
    ? or(eq(webhookEvents.status, "failed"), and(inArray(webhookEvents.status, ["pending"]), isNotNull(webhookEvents.lastError)))
    : eq(webhookEvents.status, "failed");
  const rows = await db
    .select({ event: webhookEvents, business: businesses })
    .from(webhookEvents)
    .innerJoin(businesses, eq(businesses.id, webhookEvents.businessId))
    .where(
      and(
        failing,
        query.businessId ? eq(webhookEvents.businessId, query.businessId) : undefined,
        query.after ? lt(webhookEvents.id, query.after) : undefined,
      ),
    )
    .orderBy(desc(webhookEvents.id))
    .limit(limit + 1);
  return page(
    rows,
    limit,
    ({ event: e, business }) => ({
      business: businessRef(business),
      id: e.id,
      type: e.type,
      status: e.status,
      sessionId: e.sessionId,
      subscriptionId: e.subscriptionId,
      orderId: e.orderId,
      attempts: e.attemptCount,
      lastError: e.lastError,
      lastAttemptAt: e.lastAttemptAt ? isoMicros(e.lastAttemptAt) : null,
      nextAttemptAt: e.nextAttemptAt ? isoMicros(e.nextAttemptAt) : null,
      createdAt: isoMicros(e.createdAt),
    }),
    (r) => r.event.id,
  );
}

/** How much is waiting for support: held payments and failed deliveries, in every business. */
export async function supportCounts(db: Db): Promise<{ businesses: number; inReview: number; failedDeliveries: number }> {
  const [[b], [r], [f]] = await Promise.all([
    db.select({ n: sql<string>`count(*)` }).from(businesses),
    db.select({ n: sql<string>`count(*)` }).from(payments).where(eq(payments.status, "pending_review")),
    db.select({ n: sql<string>`count(*)` }).from(webhookEvents).where(eq(webhookEvents.status, "failed")),
  ]);
  return { businesses: Number(b!.n), inReview: Number(r!.n), failedDeliveries: Number(f!.n) };
}
