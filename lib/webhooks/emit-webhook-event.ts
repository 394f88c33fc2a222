import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  webhookEvents,
  type Business,
  type CustomerDetails,
  type Payment,
  type Session,
  type WebhookEvent,
  type WebhookEventType,
} from "@/db/schema";
import { newId } from "@/lib/ids";
import { businessNowSql } from "@/lib/clock";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { isoMicros } from "@/lib/time";
import { webhookDeliveryOptions } from "./delivery-options";
import type { DisputeView } from "@/lib/disputes/dispute-schemas";
import type { WebhookCustomer, WebhookPayload } from "./webhook-payload-schema";

/** The interface's webhook payload, in its order (schema: ./webhook-payload-schema.ts). */
export type { WebhookPayload };

export type WebhookSubscriptionInfo = {
  id: string;
  cycle: number;
  currentPeriodEnd: Date | string | null;
  managementUrl: string | null;
};

export type EmitWebhookEventInput = {
  business: Pick<Business, "id" | "webhookUrl" | "webhookEvents">;
  /** The session the event is about (for subscription_canceled: the signup session). */
  session: Session;
  /** Its payment, when there is one (amount, fees, provider, method and billing details come from it). */
  payment?: Payment | null;
  type: WebhookEventType;
  /** `incomplete` (and `incomplete_again`) only: cents still to pay. */
  amountRemaining?: number;
  /** Subscription events and subscription payments. */
  subscription?: WebhookSubscriptionInfo;
  /** `subscription_payment_failed` only. */
  failureReason?: string;
  /** `refunded` (and `refunded_again`) only: the refund this event announces, and the payment's succeeded refunds so far. */
  refund?: { id: string; amount: number; amountRefunded: number };
  /** `dispute_opened` and `dispute_closed` only: the Dispute object. */
  dispute?: DisputeView;
  /** Overrides the session's order_id (rarely needed: renewal sessions carry `{order_id}-{cycle}`). */
  orderId?: string;
  /** Makes emission idempotent per business: a second event with the same key is not written. */
  dedupeKey?: string;
};

/** Provider of a catalogue method id (`stripe_credit` → `stripe`). */
function providerOfMethod(methodId: string | null): string | null {
  return methodId ? (methodId.split("_")[0] ?? null) : null;
}

function timestamp(value: Date | string | null): string | null {
  if (value === null) return null;
  return typeof value === "string" ? isoMicros(value) : `${value.toISOString().slice(0, 23)}000Z`;
}

/** Billing details with empty fields left out ("all optional"); undefined when nothing is left. */
function billingDetails(details: CustomerDetails | null | undefined): WebhookCustomer | undefined {
  if (!details) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of ["name", "email", "phone"] as const) if (details[key]) out[key] = details[key];
  if (details.address) {
    const address: Record<string, string> = {};
    for (const [key, value] of Object.entries(details.address)) if (value) address[key] = value;
    if (Object.keys(address).length) out.address = address;
  }
  return Object.keys(out).length ? (out as WebhookCustomer) : undefined;
}

/**
 * The payload of an event, exactly the interface's fields. `provider` is required by the
 * interface: for a session that expired before any provider was involved it reads "none"
 * (decision 0004).
 */
export function buildWebhookPayload(input: EmitWebhookEventInput): WebhookPayload {
  const { session, payment } = input;
  const fees = payment?.fees;
  const payload: WebhookPayload = {
    amount: payment?.amount ?? session.amount,
    currency: session.currency,
    ...(fees !== null && fees !== undefined ? { fees } : {}),
    metadata: { ...session.metadata, integration_session_id: session.id },
    type: input.type,
    provider: payment?.provider ?? providerOfMethod(session.paymentMethodId) ?? "none",
    order_id: input.orderId ?? session.orderId,
    items: session.items,
  };
  if (payment?.paymentMethod) payload.payment_method = payment.paymentMethod;
  const customer = billingDetails(payment?.customerDetails);
  if (customer) payload.customer = customer;
  if (
    (input.type === "incomplete" || input.type === "incomplete_again") &&
    input.amountRemaining !== undefined
  )
    payload.amount_remaining = input.amountRemaining;
  if (input.subscription)
    payload.subscription = {
      id: input.subscription.id,
      cycle: input.subscription.cycle,
      current_period_end: timestamp(input.subscription.currentPeriodEnd),
      management_url: input.subscription.managementUrl,
    };
  if (input.type === "subscription_payment_failed" && input.failureReason)
    payload.failure_reason = input.failureReason;
  if ((input.type === "refunded" || input.type === "refunded_again") && input.refund)
    payload.refund = {
      id: input.refund.id,
      amount: input.refund.amount,
      amount_refunded: input.refund.amountRefunded,
    };
  if (input.dispute) payload.dispute = input.dispute;
  return payload;
}

/**
 * Interface kinds that can happen again to one order, and the Kassa kind that carries the
 * repeats: receivers deduplicate on `order_id` plus `type` (decision 0042).
 */
export const againKinds: Partial<Record<WebhookEventType, WebhookEventType>> = {
  refunded: "refunded_again",
  incomplete: "incomplete_again",
};

/**
 * The kind an event is sent as: its own, or its `_again` kind when an event of that type and
 * order was already written for the business. The caller holds the session's lock, so two
 * events of one order are never both first.
 */
async function kindToSend(tx: Db, input: EmitWebhookEventInput): Promise<WebhookEventType> {
  const again = againKinds[input.type];
  if (!again) return input.type;
  const [earlier] = await tx
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.businessId, input.business.id),
        eq(webhookEvents.type, input.type),
        eq(webhookEvents.orderId, input.orderId ?? input.session.orderId),
      ),
    )
    .limit(1);
  return earlier ? again : input.type;
}

/**
 * Writes a webhook event and its first delivery job, inside the caller's transaction (the one
 * that changes the payment or subscription). An interface kind already sent for the order goes
 * as its `_again` kind (`refunded_again`, `incomplete_again`). Returns null when the business has
 * not enabled the kind (only `succeeded` by default) or the dedupe key was already used. Without
 * a webhook URL the event is recorded as `skipped` and nothing is sent.
 */
export async function emitWebhookEvent(
  tx: Db,
  requested: EmitWebhookEventInput,
): Promise<WebhookEvent | null> {
  const enabled = (type: WebhookEventType | undefined) =>
    type !== undefined && requested.business.webhookEvents.includes(type);
  if (!enabled(requested.type) && !enabled(againKinds[requested.type])) return null;
  const input = { ...requested, type: await kindToSend(tx, requested) };
  if (!enabled(input.type)) return null;
  const body = JSON.stringify(buildWebhookPayload(input));
  const deliverable = Boolean(input.business.webhookUrl);
  const firstDelayMs = webhookDeliveryOptions().scheduleMs[0] ?? 0;
  const [event] = await tx
    .insert(webhookEvents)
    .values({
      id: newId("event"),
      businessId: input.business.id,
      type: input.type,
      sessionId: input.session.id,
      paymentId: input.payment?.id ?? null,
      subscriptionId: input.subscription?.id ?? null,
      orderId: input.orderId ?? input.session.orderId,
      body,
      dedupeKey: input.dedupeKey ?? null,
      status: deliverable ? "pending" : "skipped",
      nextAttemptAt: deliverable ? businessNowSql(input.business.id, firstDelayMs) : null,
      lastError: deliverable ? null : "no webhook URL configured",
      createdAt: businessNowSql(input.business.id),
    })
    .onConflictDoNothing()
    .returning();
  if (!event) return null;
  if (deliverable)
    await enqueueJob(tx, {
      kind: "deliver_webhook",
      businessId: input.business.id,
      payload: { eventId: event.id },
      delayMs: firstDelayMs,
      // Retries follow the business's clock: advancing a sandbox clock hurries them.
      businessClock: true,
    });
  return event;
}
