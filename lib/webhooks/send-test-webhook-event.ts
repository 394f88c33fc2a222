import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import {
  businesses,
  webhookEvents,
  webhookEventTypes,
  type WebhookEvent,
  type WebhookEventType,
} from "@/db/schema";
import { businessNowSql } from "@/lib/clock";
import { ConflictError, NotFoundError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { parseOrThrow } from "@/lib/http/validation";
import { enqueueJob, transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { webhookDeliveryOptions } from "./delivery-options";
import type { WebhookPayload } from "./emit-webhook-event";

/** Body of POST /webhooks/test. */
export const testWebhookSchema = z.object({
  type: z
    .enum(webhookEventTypes, { error: `type must be one of ${webhookEventTypes.join(", ")}` })
    .nullable()
    .optional(),
});

/** Body of POST /webhooks/test: `{type?}`, `succeeded` by default. */
export function parseTestWebhookInput(body: unknown): WebhookEventType {
  return parseOrThrow(testWebhookSchema, body).type ?? "succeeded";
}

/**
 * A test event's payload: the interface's fields for its kind, sample values, and `test: true`
 * last. Its `order_id` is `test_{event id}`, so a receiver deduplicating on order_id plus type
 * never mistakes it for (or drops it as) a real order.
 */
export function testWebhookPayload(type: WebhookEventType, eventId: string): WebhookPayload & { test: true } {
  const subscription = type.startsWith("subscription_") || undefined;
  const crypto = type === "incomplete" || type === "incomplete_again";
  return {
    amount: 2500,
    currency: "USD",
    ...(type === "expired" ? {} : { fees: 103 }),
    metadata: { integration_session_id: "cs_test" },
    type,
    provider: type === "expired" ? "none" : crypto ? "sandbox" : "stripe",
    order_id: `test_${eventId}`,
    items: [{ name: "Test item", quantity: 1, price: 2500 }],
    ...(type === "expired" ? {} : { payment_method: crypto ? "bitcoin" : "credit" }),
    ...(crypto ? { amount_remaining: 1000 } : {}),
    ...(subscription
      ? {
          subscription: {
            id: "psub_test",
            cycle: type === "subscription_canceled" ? 1 : 2,
            current_period_end: null,
            management_url: null,
          },
        }
      : {}),
    ...(type === "subscription_payment_failed" ? { failure_reason: "card_declined" } : {}),
    test: true,
  };
}

/**
 * POST /webhooks/test: writes a test event of `type` (whether or not the business enabled that
 * kind) and delivers it like any other: signed, logged, retried on the business's clock.
 */
export async function sendTestWebhookEvent(
  db: Db,
  businessId: string,
  type: WebhookEventType,
): Promise<WebhookEvent> {
  const firstDelayMs = webhookDeliveryOptions().scheduleMs[0] ?? 0;
  return transactionWithJobs(db, async (tx) => {
    const [business] = await tx
      .select({ webhookUrl: businesses.webhookUrl })
      .from(businesses)
      .where(eq(businesses.id, businessId));
    if (!business) throw new NotFoundError("business_not_found", "No such business");
    if (!business.webhookUrl)
      throw new ConflictError(
        "webhook_url_not_set",
        "No webhook URL is set: set one with POST /webhooks/endpoint",
      );
    const id = newId("event");
    const body = JSON.stringify(testWebhookPayload(type, id));
    const [event] = await tx
      .insert(webhookEvents)
      .values({
        id,
        businessId,
        type,
        orderId: `test_${id}`,
        body,
        status: "pending",
        nextAttemptAt: businessNowSql(businessId, firstDelayMs),
        // On the business's clock like every event: the log and GET /webhooks/listen order by it.
        createdAt: businessNowSql(businessId),
      })
      .returning();
    await enqueueJob(tx, {
      kind: "deliver_webhook",
      businessId,
      payload: { eventId: id },
      delayMs: firstDelayMs,
      businessClock: true,
    });
    return event!;
  });
}
