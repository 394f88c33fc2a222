import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  businesses,
  disputes,
  paymentAttempts,
  payments,
  refunds,
  sessions,
  webhookDeliveries,
  webhookEvents,
  type Dispute,
  type Payment,
  type PaymentAttempt,
  type Refund,
  type Session,
  type WebhookDelivery,
  type WebhookEvent,
} from "@/db/schema";
import type { PaymentDispute } from "@/lib/disputes/dispute-filter";
import { isChargeback, outcomeOf } from "@/lib/disputes/dispute-view";
import { PaymentNotFoundError } from "@/lib/errors";
import { paymentView, type PaymentView } from "@/lib/payments/get-payment";
import { formatMoney } from "@/lib/money";
import { isoMicros } from "@/lib/time";

export type TimelineEntry = {
  /** ISO 8601 UTC with microseconds. */
  at: string;
  kind: "session" | "attempt" | "payment" | "review" | "refund" | "dispute" | "webhook" | "delivery";
  title: string;
  detail?: string;
  /** A dashboard page the entry links to (a dispute's). */
  href?: string;
  tone: "neutral" | "good" | "bad" | "warn";
};

export type PaymentDetail = {
  /** Exactly the interface's Payment object (GET /payment/{session_id}). */
  payment: PaymentView;
  /** What the dashboard shows besides the interface's fields. */
  internal: {
    paymentId: string | null;
    refundedAmount: number;
    /** Cents that can still be refunded: 0 unless succeeded, and 0 once charged back (the Refund button follows it). */
    refundable: number;
    /** Why a succeeded payment with money left cannot be refunded (a chargeback), in words; null otherwise. */
    notRefundableReason: string | null;
    /** The payment's dispute (the latest), shown beside its status; null when never disputed. */
    dispute: PaymentDispute | null;
    screeningFee: number;
    amountReceived: number | null;
    fraudDecision: Payment["fraudDecision"];
    fraudReasons: string[];
    riskLevel: string | null;
    failureCode: string | null;
    failureMessage: string | null;
    reviewedAt: string | null;
    completedAt: string | null;
    expiresAt: string;
  };
  refunds: Refund[];
  events: (WebhookEvent & { deliveries: WebhookDelivery[] })[];
  /** Everything that happened to the payment, oldest first. */
  timeline: TimelineEntry[];
};

const sessionIdPattern = /^cs_[0-9A-Za-z]{1,64}$/;
const iso = (value: string | null | undefined) => (value ? isoMicros(value) : null);

type DetailEvent = PaymentDetail["events"][number];

/** One payment of a business for the detail page; another business's session is as unknown as a missing one. */
export async function getPaymentDetail(db: Db, businessId: string, sessionId: string): Promise<PaymentDetail> {
  if (!sessionIdPattern.test(sessionId)) throw new PaymentNotFoundError();
  const [row] = await db
    .select({ session: sessions, payment: payments, business: businesses })
    .from(sessions)
    .innerJoin(businesses, eq(businesses.id, sessions.businessId))
    .leftJoin(payments, eq(payments.sessionId, sessions.id))
    .where(and(eq(sessions.id, sessionId), eq(sessions.businessId, businessId)))
    .limit(1);
  if (!row) throw new PaymentNotFoundError();
  const { session, payment, business } = row;
  const { attempts, refundRows, events, disputeRows } = await loadHistory(db, businessId, sessionId);

  return {
    payment: paymentView(session, payment, business),
    internal: { ...internalFields(session, payment), ...refundability(payment, disputeRows), dispute: latestDispute(disputeRows) },
    refunds: refundRows,
    events,
    timeline: paymentTimeline(session, payment, { attempts, refundRows, disputeRows, events }),
  };
}

/** The session's attempts, refunds, disputes and webhook events (with their deliveries), oldest first. */
async function loadHistory(db: Db, businessId: string, sessionId: string) {
  const [attempts, refundRows, eventRows, disputeRows] = await Promise.all([
    db.select().from(paymentAttempts).where(eq(paymentAttempts.sessionId, sessionId)).orderBy(asc(paymentAttempts.createdAt), asc(paymentAttempts.id)),
    db.select().from(refunds).where(eq(refunds.sessionId, sessionId)).orderBy(asc(refunds.createdAt), asc(refunds.id)),
    db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.businessId, businessId), eq(webhookEvents.sessionId, sessionId)))
      .orderBy(asc(webhookEvents.id)),
    db.select().from(disputes).where(and(eq(disputes.businessId, businessId), eq(disputes.sessionId, sessionId))).orderBy(asc(disputes.id)),
  ]);
  const deliveries = eventRows.length
    ? await db
        .select()
        .from(webhookDeliveries)
        .where(inArray(webhookDeliveries.eventId, eventRows.map((e) => e.id)))
        .orderBy(asc(webhookDeliveries.number))
    : [];
  const events = eventRows.map((e) => ({ ...e, deliveries: deliveries.filter((d) => d.eventId === e.id) }));
  return { attempts, refundRows, events, disputeRows };
}

/** The latest of the session's disputes (oldest first), as the header shows it. */
function latestDispute(disputeRows: Dispute[]): PaymentDispute | null {
  const latest = disputeRows.at(-1);
  return latest ? { id: latest.id, status: latest.status } : null;
}

/** What the Refund button offers: what is left of a succeeded payment, unless it was charged back (Stripe refuses). */
function refundability(payment: Payment | null, disputeRows: Dispute[]): Pick<PaymentDetail["internal"], "refundable" | "notRefundableReason"> {
  const left = payment?.status === "succeeded" ? Math.max(0, payment.amount - payment.refundedAmount) : 0;
  const chargeback = disputeRows.find((d) => isChargeback(d.status));
  if (left > 0 && chargeback)
    return {
      refundable: 0,
      notRefundableReason: "This payment was disputed and charged back: it cannot be refunded. The dispute decides where the money goes; answer or accept it on the dispute's page.",
    };
  return { refundable: left, notRefundableReason: null };
}

function internalFields(session: Session, payment: Payment | null): Omit<PaymentDetail["internal"], "refundable" | "notRefundableReason" | "dispute"> {
  return {
    paymentId: payment?.id ?? null,
    refundedAmount: payment?.refundedAmount ?? 0,
    screeningFee: payment?.screeningFee ?? 0,
    amountReceived: payment?.amountReceived ?? null,
    fraudDecision: payment?.fraudDecision ?? null,
    fraudReasons: payment?.fraudReasons ?? [],
    riskLevel: payment?.riskLevel ?? null,
    failureCode: payment?.failureCode ?? null,
    failureMessage: payment?.failureMessage ?? null,
    reviewedAt: iso(payment?.reviewedAt),
    completedAt: iso(payment?.completedAt),
    expiresAt: isoMicros(session.expiresAt),
  };
}

/** Everything that happened, oldest first. */
function paymentTimeline(
  session: Session,
  payment: Payment | null,
  history: { attempts: PaymentAttempt[]; refundRows: Refund[]; disputeRows: Dispute[]; events: DetailEvent[] },
): TimelineEntry[] {
  const timeline: TimelineEntry[] = [{ at: isoMicros(session.createdAt), kind: "session", title: "Session created", detail: `Order ${session.orderId}`, tone: "neutral" }];
  for (const a of history.attempts) {
    timeline.push({
      at: isoMicros(a.createdAt),
      kind: "attempt",
      title: `Payment attempt (${a.method} via ${a.provider})`,
      detail: a.failureMessage ? `${a.status}: ${a.failureMessage}` : a.status,
      tone: a.failureCode ? "bad" : "neutral",
    });
  }
  if (payment?.completedAt) {
    const good = payment.status === "succeeded";
    timeline.push({
      at: isoMicros(payment.completedAt),
      kind: "payment",
      title: `Payment ${payment.status.replace("_", " ")}`,
      detail: payment.failureMessage ?? undefined,
      tone: good ? "good" : payment.status === "pending_review" ? "warn" : "bad",
    });
  }
  if (payment?.reviewedAt) {
    timeline.push({ at: isoMicros(payment.reviewedAt), kind: "review", title: "Review decided", detail: `Now ${payment.status}`, tone: "neutral" });
  }
  for (const r of history.refundRows) timeline.push(...refundEntries(r, session.currency));
  for (const d of history.disputeRows) timeline.push(...disputeEntries(d));
  for (const e of history.events) timeline.push(...eventEntries(e));
  // ISO strings of one format sort as time; the sort is stable for equal instants.
  timeline.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return timeline;
}

function refundEntries(r: Refund, currency: string): TimelineEntry[] {
  const entries: TimelineEntry[] = [{ at: isoMicros(r.createdAt), kind: "refund", title: `Refund requested (${r.reason.replaceAll("_", " ")})`, detail: r.note ? `${formatMoney(r.amount, currency)}: ${r.note}` : formatMoney(r.amount, currency), tone: "neutral" }];
  if (r.completedAt) {
    entries.push({
      at: isoMicros(r.completedAt),
      kind: "refund",
      title: r.status === "succeeded" ? "Refund succeeded" : `Refund ${r.status}`,
      detail: r.failureMessage ?? undefined,
      tone: r.status === "succeeded" ? "good" : "bad",
    });
  }
  return entries;
}

function disputeEntries(d: Dispute): TimelineEntry[] {
  const href = `/dashboard/disputes/${d.id}`;
  const inquiry = d.status.startsWith("warning_");
  const entries: TimelineEntry[] = [{ at: isoMicros(d.createdAt), kind: "dispute", title: inquiry ? "Inquiry opened" : "Dispute opened", detail: `${formatMoney(d.amount, d.currency)}, ${d.reason.replaceAll("_", " ")}`, tone: "warn", href }];
  const outcome = outcomeOf(d.status);
  if (d.closedAt && outcome)
    entries.push({ at: isoMicros(d.closedAt), kind: "dispute", title: `Dispute closed: ${outcome}`, detail: d.status.replaceAll("_", " "), tone: outcome === "won" ? "good" : "bad", href });
  return entries;
}

function eventEntries(e: DetailEvent): TimelineEntry[] {
  const entries: TimelineEntry[] = [{ at: isoMicros(e.createdAt), kind: "webhook", title: `Webhook event ${e.type}`, detail: `${e.id}: ${e.status}`, tone: e.status === "failed" ? "bad" : "neutral" }];
  for (const d of e.deliveries) {
    const outcome = d.statusCode ? `HTTP ${d.statusCode}` : (d.error ?? d.outcome);
    entries.push({
      at: isoMicros(d.startedAt),
      kind: "delivery",
      title: d.source === "listen" ? `kassa listen forward ${d.number} of ${e.type}` : `Delivery attempt ${d.number} of ${e.type}`,
      detail: `${outcome}${d.durationMs !== null ? ` in ${d.durationMs} ms` : ""}`,
      tone: d.outcome === "succeeded" ? "good" : d.outcome === "in_flight" ? "neutral" : "bad",
    });
  }
  return entries;
}
