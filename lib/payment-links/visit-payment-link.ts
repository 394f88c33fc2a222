import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, paymentLinkSessions, paymentLinks, payments, sessions, type Business, type PaymentLink } from "@/db/schema";
import type { ApiCaller } from "@/lib/auth/api-keys";
import { businessNow } from "@/lib/clock";
import { randomToken } from "@/lib/ids";
import { env } from "@/lib/env";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { sessionExpired } from "@/lib/payments/get-payment";
import { countInWindow } from "@/lib/rate-limit/count-in-window";
import { createSession, prepareSession } from "@/lib/sessions/create-session";
import { toDbTime } from "@/lib/time";
import { sessionBodyOf } from "./link-input";
import { linkUsage, usesOf } from "./link-uses";

export type Unavailable = "not_found" | "inactive" | "expired" | "exhausted";

export type VisitOutcome =
  | { kind: "session"; sessionId: string; visitId: string; reused: boolean }
  | { kind: "unavailable"; reason: Unavailable }
  | { kind: "bad_quantity"; message: string }
  | { kind: "rate_limited"; retryAfterSeconds: number };

export type Visit = {
  /** The payer's visit id (cookie), if any: a reload with it reuses the session it made. */
  visitId: string | null;
  /** `?quantity=` as sent, for a link with an adjustable quantity. */
  quantity: string | null;
  clientIp: string | null;
};

async function findLink(db: Db, slug: string): Promise<{ link: PaymentLink; business: Business } | null> {
  const [row] = await db
    .select({ link: paymentLinks, business: businesses })
    .from(paymentLinks)
    .innerJoin(businesses, eq(businesses.id, paymentLinks.businessId))
    .where(eq(paymentLinks.slug, slug));
  return row ?? null;
}

/**
 * The session this visit already made, while it is still to be paid (else null: a payer who paid
 * and comes back for another gets a new session).
 */
async function visitSession(db: Db, link: PaymentLink, business: Business, visitId: string) {
  const [row] = await db
    .select({ session: sessions, status: payments.status })
    .from(paymentLinkSessions)
    .innerJoin(sessions, eq(sessions.id, paymentLinkSessions.sessionId))
    .leftJoin(payments, eq(payments.sessionId, sessions.id))
    .where(and(eq(paymentLinkSessions.linkId, link.id), eq(paymentLinkSessions.visitId, visitId)));
  if (!row || sessionExpired(row.session, business)) return null;
  return row.status === "succeeded" || row.status === "expired" ? null : row.session;
}

/** Whether the session a reload found is for the quantity this visit asks for (none: any). */
function sameQuantity(session: { items: PaymentLink["items"] }, quantity: string | null): boolean {
  return quantity === null || quantity === "" || session.items[0]?.quantity === Number(quantity);
}

function unavailability(link: PaymentLink, now: Date): "inactive" | "expired" | null {
  if (!link.active) return "inactive";
  if (link.expiresAt && new Date(link.expiresAt).getTime() <= now.getTime()) return "expired";
  return null;
}

/**
 * Whether the link's limit of uses is reached: its payments and open checkouts (link-uses.ts), not
 * its visits. Read without a lock first (a used-up link costs no rate-limit count and no session
 * preparation); takeUse decides again under the link's lock.
 */
async function usedUp(db: Db, link: PaymentLink): Promise<boolean> {
  return link.maxUses !== null && usesOf(await linkUsage(db, link)) >= link.maxUses;
}

/** The link's items with the payer's quantity, or why it is refused. */
function itemsFor(link: PaymentLink, quantity: string | null): PaymentLink["items"] | { message: string } {
  if (quantity === null || quantity === "") return link.items;
  const bounds = link.adjustableQuantity;
  if (!bounds) return { message: "This link's quantity cannot be changed." };
  const n = /^\d{1,7}$/.test(quantity) ? Number(quantity) : NaN;
  if (!(n >= bounds.minimum && n <= bounds.maximum))
    return { message: `The quantity must be a whole number from ${bounds.minimum} to ${bounds.maximum}.` };
  return [{ ...link.items[0]!, quantity: n }];
}

/**
 * One visit of `{ORIGIN}/l/{slug}` (decision 0049): the session this visit made before (a reload),
 * or a new one of the link's items, metadata and plan with the order id `{order_prefix}-{n}`. A new
 * session holds one of the link's uses until it is paid or expires: under the link's lock, in the
 * transaction that makes the session, the payments and open checkouts are counted against
 * max_uses, so racing visits never exceed it. New sessions count
 * against a per-IP limit (RATE_LIMIT_SESSION_PUBLIC per window, as POST /session with a public key).
 */
export async function visitPaymentLink(db: Db, slug: string, visit: Visit): Promise<VisitOutcome> {
  const found = await findLink(db, slug);
  if (!found) return { kind: "unavailable", reason: "not_found" };
  const { link, business } = found;
  const now = businessNow(business);
  const reason = unavailability(link, now);
  if (reason) return { kind: "unavailable", reason };
  const earlier = visit.visitId ? await visitSession(db, link, business, visit.visitId) : null;
  // A reload reuses its session; another quantity (the checkout's quantity form) makes a new one.
  if (earlier && sameQuantity(earlier, visit.quantity))
    return { kind: "session", sessionId: earlier.id, visitId: visit.visitId!, reused: true };
  if (await usedUp(db, link)) return { kind: "unavailable", reason: "exhausted" };

  const items = itemsFor(link, visit.quantity);
  if (!Array.isArray(items)) return { kind: "bad_quantity", message: items.message };

  const e = env();
  const { count, msLeft } = await countInWindow(db, `plink:ip:${business.id}:${visit.clientIp ?? "unknown"}`, e.RATE_LIMIT_WINDOW_SECONDS);
  if (count > e.RATE_LIMIT_SESSION_PUBLIC)
    return { kind: "rate_limited", retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)) };

  const caller: ApiCaller = { business, keyKind: "secret", keyId: `link:${link.id}` };
  const amount = items.reduce((total, item) => total + item.price * item.quantity, 0);
  const body = sessionBodyOf(linkBody(link), "pending", items, amount);
  body.customer = link.id;
  // Every check of POST /session, outside the transaction (a plan's may call Stripe).
  const prepared = await prepareSession(db, caller, body);
  // A new session is a new visit: its own id, so a reload finds this session and no other.
  const visitId = randomToken(24);
  return transactionWithJobs(db, async (tx): Promise<VisitOutcome> => {
    const sequence = await takeUse(tx, link, business, now);
    if (sequence === null) return { kind: "unavailable", reason: unavailability(await reread(tx, link), now) ?? "exhausted" };
    const orderId = `${link.orderPrefix}-${sequence}`;
    const input = { ...prepared.input, order_id: orderId };
    const session = await createSession(tx, caller, { ...body, order_id: orderId }, { clientIp: null }, { ...prepared, input });
    await tx.insert(paymentLinkSessions).values({ sessionId: session.id, linkId: link.id, visitId, createdAt: toDbTime(now) });
    return { kind: "session", sessionId: session.id, visitId, reused: false };
  });
}

/** The link's fields in the shape of POST /payment-links' body (for sessionBodyOf). */
function linkBody(link: PaymentLink): Record<string, unknown> {
  return {
    currency: link.currency,
    description: link.description,
    metadata: link.metadata,
    subscription: link.subscriptionInterval
      ? { interval: link.subscriptionInterval, interval_count: link.subscriptionIntervalCount }
      : undefined,
  };
}

async function reread(tx: Db, link: PaymentLink): Promise<PaymentLink> {
  const [fresh] = await tx.select().from(paymentLinks).where(eq(paymentLinks.id, link.id));
  return fresh ?? link;
}

/**
 * Takes one use if the link may still make a session (active, not expired, its payments and open
 * checkouts below max_uses, counted under the link's row lock so racing visits queue), and answers
 * the next sequence number: the first whose order id no session of the business holds yet (a
 * merchant may have used one by hand). `uses` is that sequence: the sessions the link has made.
 */
async function takeUse(tx: Db, link: PaymentLink, business: Business, now: Date): Promise<number | null> {
  const [locked] = await tx
    .select()
    .from(paymentLinks)
    .where(
      and(
        eq(paymentLinks.id, link.id),
        eq(paymentLinks.active, true),
        or(isNull(paymentLinks.expiresAt), gt(paymentLinks.expiresAt, toDbTime(now))),
      ),
    )
    .for("update");
  if (!locked || (await usedUp(tx, locked))) return null;
  for (;;) {
    const [row] = await tx
      .update(paymentLinks)
      .set({ uses: sql`${paymentLinks.uses} + 1` })
      .where(eq(paymentLinks.id, link.id))
      .returning({ uses: paymentLinks.uses });
    if (!row) return null;
    const [taken] = await tx
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.businessId, business.id), eq(sessions.orderId, `${link.orderPrefix}-${row.uses}`)));
    if (!taken) return row.uses;
  }
}
