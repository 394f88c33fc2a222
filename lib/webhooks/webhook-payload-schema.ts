import { z } from "zod";
import { webhookEventTypes } from "@/db/schema";
import { DisputeSchema } from "@/lib/disputes/dispute-schemas";
import { SessionItemSchema } from "@/lib/payments/payment-schemas";

/**
 * The interface's webhook payload (Events, Payload fields) as a zod schema: buildWebhookPayload's
 * return type is inferred from it and the OpenAPI document's `webhooks` are generated from it.
 */

const text = z.string().optional();

export const WebhookCustomerSchema = z
  .strictObject({
    name: text,
    email: text,
    phone: text,
    address: z
      .strictObject({ line1: text, line2: text, city: text, state: text, postal_code: text, country: text })
      .optional(),
  })
  .meta({ id: "WebhookCustomer", description: "The payer's billing details when collected (all optional)." });
export type WebhookCustomer = z.infer<typeof WebhookCustomerSchema>;

export const WebhookPayloadSchema = z
  .strictObject({
    amount: z.int().meta({ description: "Payment amount in cents." }),
    currency: z.string().meta({ example: "USD" }),
    fees: z.int().optional().meta({ description: "Fees in cents, present when calculated." }),
    metadata: z
      .looseObject({ integration_session_id: z.string().meta({ description: "The session's id." }) })
      .meta({ description: "The session's metadata, plus `integration_session_id`." }),
    type: z.enum(webhookEventTypes),
    provider: z
      .string()
      .meta({ description: "Provider used; `none` for a session that expired before any." }),
    order_id: z.string().meta({ description: "The business's order id; `{order_id}-{cycle}` for renewals." }),
    items: z.array(SessionItemSchema),
    payment_method: z.string().optional(),
    customer: WebhookCustomerSchema.optional(),
    amount_remaining: z.int().optional().meta({
      description:
        "Only on `incomplete` and `incomplete_again`: amount already received = amount - amount_remaining.",
    }),
    subscription: z
      .strictObject({
        id: z.string().meta({ description: "`psub_…`" }),
        cycle: z.int().min(1).meta({ description: "1 for the signup payment, 2 for the first renewal, …" }),
        current_period_end: z.string().nullable().meta({ format: "date-time" }),
        management_url: z.string().nullable(),
      })
      .optional()
      .meta({ description: "On subscription-related events." }),
    failure_reason: z.string().optional().meta({
      description:
        "Only on `subscription_payment_failed`; `authentication_required` when the bank needs the customer.",
    }),
    refund: z
      .strictObject({
        id: z.string(),
        amount: z.int().meta({ description: "This refund's cents." }),
        amount_refunded: z.int().meta({ description: "Cents refunded so far in all, this refund included." }),
      })
      .optional()
      .meta({
        description:
          "Only on `refunded` and `refunded_again` (Kassa's addition): a later refund of an order comes as `refunded_again`; tell those apart by refund.id.",
      }),
    dispute: DisputeSchema.optional().meta({
      description:
        "Only on `dispute_opened` and `dispute_closed` (Kassa's addition): the Dispute, `outcome` set when closed.",
    }),
    test: z
      .literal(true)
      .optional()
      .meta({ description: "Only on test events sent by POST /webhooks/test: fulfil nothing." }),
  })
  .meta({
    id: "WebhookPayload",
    description:
      "Deduplicate on `order_id` plus `type`: the interface's kinds are sent at most once per order; `refunded_again` and `incomplete_again` (Kassa's additions) carry what happens again.",
  });
export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;

/** The headers of every webhook request (lib/webhooks/sign-webhook.ts). */
export const WebhookHeadersSchema = z.object({
  Signature: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .meta({
      description:
        "Lowercase hex HMAC-SHA256 of the raw request body keyed with the webhook token; compare in constant time and process only on a match.",
    }),
  "webhook-id": z
    .string()
    .meta({ description: "Standard Webhooks: the event id (`evt_…`), the same on every retry." }),
  "webhook-timestamp": z
    .string()
    .regex(/^\d+$/)
    .meta({ description: "Standard Webhooks: Unix seconds of this attempt; refuse ones too far from now." }),
  "webhook-signature": z.string().meta({
    description:
      "Standard Webhooks: `v1,<base64 HMAC-SHA256 of {id}.{timestamp}.{body}>` keyed with the token's base64 part; space-separated, one per token, during a token rotation.",
  }),
});
