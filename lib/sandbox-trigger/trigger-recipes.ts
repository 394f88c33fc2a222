import { randomBytes } from "node:crypto";
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, disputes, subscriptions, type Business, type WebhookEvent, type WebhookEventType } from "@/db/schema";
import { acceptDispute } from "@/lib/disputes/answer-dispute";
import { advanceSandboxClock } from "@/lib/businesses/advance-sandbox-clock";
import { businessNow } from "@/lib/clock";
import { sandboxPay } from "@/lib/payments/sandbox-pay";
import { refundPayment } from "@/lib/payments/refund-payment";
import { createSession } from "@/lib/sessions/create-session";
import { cancelSubscription } from "@/lib/subscriptions/cancel-subscription";
import { parseDbTime } from "@/lib/time";
import { expireNow } from "./expire-now";
import { eventOf, waitFor } from "./wait-for";

// What `npx kassa trigger <kind>` does for each kind (decision 0053): the objects a real event
// of that kind needs, made with the same service functions as the API and the sandbox helpers.

export type TriggerContext = { db: Db; business: Business };
export type Triggered = { event: WebhookEvent; objects: Record<string, string> };

const cards = {
  ok: "4242424242424242",
  review: "4000000000009235",
  fraud: "4100000000000019",
  failsLater: "4000000000000341",
  dispute: "4000000000000259",
};

async function newSession(ctx: TriggerContext, kind: string, extra: Record<string, unknown> = {}) {
  const caller = { business: ctx.business, keyKind: "secret" as const, keyId: "kassa_trigger" };
  const body = {
    amount: 2500,
    currency: "USD",
    customer: "cus_trigger",
    order_id: `trigger-${kind}-${randomBytes(6).toString("hex")}`,
    items: [{ name: "Triggered test item", quantity: 1, price: 2500 }],
    metadata: { triggered_by: "kassa trigger" },
    ...extra,
  };
  return createSession(ctx.db, caller, body, { clientIp: null });
}

function pay(ctx: TriggerContext, sessionId: string, body: Record<string, unknown>) {
  const customer = { name: "Test Payer", email: "payer@example.com" };
  return sandboxPay(ctx.db, ctx.business, sessionId, { customer_details: customer, ...body }, {
    clientIp: null,
    userAgent: "kassa trigger",
  });
}

/** A paid (or screened) one-time payment, and the event of `type` it leads to. */
async function paid(ctx: TriggerContext, type: WebhookEventType, card: string): Promise<Triggered> {
  const session = await newSession(ctx, type);
  await pay(ctx, session.id, { card_number: card });
  const event = await eventOf(ctx.db, ctx.business.id, type, { sessionId: session.id });
  return { event, objects: { session_id: session.id } };
}

async function refunded(ctx: TriggerContext, type: "refunded" | "refunded_again"): Promise<Triggered> {
  const session = await newSession(ctx, type);
  await pay(ctx, session.id, { card_number: cards.ok });
  const first = await refundPayment(ctx.db, ctx.business.id, session.id, type === "refunded" ? {} : { amount: 1000 });
  const last = type === "refunded" ? first : await refundPayment(ctx.db, ctx.business.id, session.id, {});
  const event = await eventOf(ctx.db, ctx.business.id, type, { sessionId: session.id });
  return { event, objects: { session_id: session.id, refund_id: last.id } };
}

async function underpaid(ctx: TriggerContext, type: "incomplete" | "incomplete_again"): Promise<Triggered> {
  const session = await newSession(ctx, type);
  const method = { payment_method: "sandbox_bitcoin", outcome: "underpaid" };
  await pay(ctx, session.id, { ...method, amount_paid: 1000 });
  if (type === "incomplete_again") await pay(ctx, session.id, { ...method, amount_paid: 500 });
  const event = await eventOf(ctx.db, ctx.business.id, type, { sessionId: session.id });
  return { event, objects: { session_id: session.id } };
}

async function expired(ctx: TriggerContext): Promise<Triggered> {
  const session = await newSession(ctx, "expired");
  await expireNow(ctx.db, ctx.business, session.id);
  const event = await eventOf(ctx.db, ctx.business.id, "expired", { sessionId: session.id });
  return { event, objects: { session_id: session.id } };
}

/** A daily plan signed up and paid, once it exists at the provider (its set-up job ran). */
async function signedUp(ctx: TriggerContext, kind: string, card: string) {
  const session = await newSession(ctx, kind, { subscription: { interval: "day", interval_count: 1 } });
  await pay(ctx, session.id, { card_number: card });
  const subscription = await waitFor(ctx.db, ctx.business.id, "the subscription at the provider", async () => {
    const [row] = await ctx.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.initialSessionId, session.id), isNotNull(subscriptions.providerSubscriptionId)));
    return row;
  });
  return { session, subscription };
}

async function canceled(ctx: TriggerContext): Promise<Triggered> {
  const { session, subscription } = await signedUp(ctx, "subscription_canceled", cards.ok);
  await cancelSubscription(ctx.db, ctx.business.id, subscription.id, { atPeriodEnd: false, by: "api" });
  const event = await eventOf(ctx.db, ctx.business.id, "subscription_canceled", { subscriptionId: subscription.id });
  return { event, objects: { session_id: session.id, subscription_id: subscription.id } };
}

/** The renewal of a plan whose card fails later: the business's sandbox clock moves to it. */
async function renewalFailed(ctx: TriggerContext): Promise<Triggered> {
  const { session, subscription } = await signedUp(ctx, "subscription_payment_failed", cards.failsLater);
  const [clock] = await ctx.db
    .select({ clockOffsetMs: businesses.clockOffsetMs })
    .from(businesses)
    .where(eq(businesses.id, ctx.business.id));
  const now = businessNow(clock ?? ctx.business).getTime();
  const end = subscription.currentPeriodEnd ? parseDbTime(subscription.currentPeriodEnd).getTime() : now;
  // Two hours past the period's end: the renewal invoice is charged (and fails) by then.
  await advanceSandboxClock(ctx.db, ctx.business, Math.max(1, Math.ceil((end - now) / 1000)) + 7200);
  const event = await eventOf(ctx.db, ctx.business.id, "subscription_payment_failed", {
    subscriptionId: subscription.id,
  });
  return { event, objects: { session_id: session.id, subscription_id: subscription.id } };
}

async function disputed(ctx: TriggerContext, type: "dispute_opened" | "dispute_closed"): Promise<Triggered> {
  const session = await newSession(ctx, type);
  await pay(ctx, session.id, { card_number: cards.dispute });
  const dispute = await waitFor(ctx.db, ctx.business.id, "the dispute", async () => {
    const [row] = await ctx.db.select().from(disputes).where(eq(disputes.sessionId, session.id));
    return row;
  });
  if (type === "dispute_closed") await acceptDispute(ctx.db, ctx.business.id, dispute.id);
  const event = await eventOf(ctx.db, ctx.business.id, type, { sessionId: session.id });
  return { event, objects: { session_id: session.id, dispute_id: dispute.id } };
}

/** One recipe per kind the business can receive (db/schema's webhookEventTypes). */
export const triggerRecipes: Record<WebhookEventType, (ctx: TriggerContext) => Promise<Triggered>> = {
  succeeded: (ctx) => paid(ctx, "succeeded", cards.ok),
  pending_review: (ctx) => paid(ctx, "pending_review", cards.review),
  declined: (ctx) => paid(ctx, "declined", cards.fraud),
  refunded: (ctx) => refunded(ctx, "refunded"),
  refunded_again: (ctx) => refunded(ctx, "refunded_again"),
  expired,
  incomplete: (ctx) => underpaid(ctx, "incomplete"),
  incomplete_again: (ctx) => underpaid(ctx, "incomplete_again"),
  subscription_payment_failed: renewalFailed,
  subscription_canceled: canceled,
  dispute_opened: (ctx) => disputed(ctx, "dispute_opened"),
  dispute_closed: (ctx) => disputed(ctx, "dispute_closed"),
};
