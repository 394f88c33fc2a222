import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import type { WebhookEventType } from "@/db/schema";
import { WebhookHeadersSchema, WebhookPayloadSchema } from "@/lib/webhooks/webhook-payload-schema";
import { jsonBody } from "../common";

/** When each event is sent and what its receiver should do (the interface's Event kinds). */
const events: Record<WebhookEventType, { summary: string; description: string }> = {
  succeeded: {
    summary: "A payment succeeded",
    description:
      "Payment validated; every subscription renewal charge (`subscription.cycle` >= 2, a new order_id); a reviewed payment accepted; a crypto shortfall completed. The order may be fulfilled. Enabled by default.",
  },
  pending_review: {
    summary: "A payment is held by fraud screening",
    description: "Do not fulfil; a `succeeded` or `declined` follows.",
  },
  declined: {
    summary: "A payment was declined by fraud prevention",
    description: "The customer was refunded automatically. Do not fulfil.",
  },
  refunded: {
    summary: "A refund was processed",
    description:
      "The first refund of an order: sent at most once per order_id. Carries `refund` (Kassa's addition); later refunds of the order come as `refunded_again`.",
  },
  expired: {
    summary: "A session expired without payment",
    description: "24 hours without a payment initiated. Optional event.",
  },
  incomplete: {
    summary: "A crypto payment was underpaid",
    description:
      "Opt-in; at most once per order_id. Carries `amount_remaining`; do not fulfil until `succeeded`. A later underpayment of the order comes as `incomplete_again`.",
  },
  subscription_payment_failed: {
    summary: "A renewal charge failed",
    description:
      "Opt-in; one per cycle even with several retries. Carries `failure_reason` (`authentication_required` when the bank needs the customer); `subscription.current_period_end` is the end of the unpaid period.",
  },
  subscription_canceled: {
    summary: "A subscription ended",
    description:
      "Opt-in. Attached to the signup payment (original order_id, cycle 1); identify it by `subscription.id`. Scheduling a cancellation sends nothing; this is sent when it actually ends.",
  },
  refunded_again: {
    summary: "A later refund of an already refunded order",
    description:
      "Kassa's addition, opt-in (enabled with `refunded` for businesses that had it before). Same payload as `refunded`; may repeat for one order: deduplicate on `refund.id`. Decision 0042.",
  },
  incomplete_again: {
    summary: "More money arrived on an underpaid crypto payment, still short",
    description:
      "Kassa's addition, opt-in. Same payload as `incomplete`, with the new `amount_remaining`; do not fulfil until `succeeded`. Decision 0042.",
  },
  dispute_opened: {
    summary: "A payment was disputed",
    description:
      "Opt-in. The cardholder disputed the payment (a chargeback, or an inquiry: `dispute.status` `warning_needs_response`). Carries `dispute` (the Dispute object): answer with POST /disputes/{id}/evidence or /accept before `dispute.evidence_due_by`. For a chargeback the disputed amount and the dispute fee have left the balance. Once per dispute.",
  },
  dispute_closed: {
    summary: "A dispute ended",
    description:
      "Opt-in. Carries `dispute` with its final `status` (`won`, `lost`, `warning_closed`) and `outcome` (`won` or `lost`). Won: the amount and the fee are back in the balance. Once per dispute.",
  },
};

/**
 * The webhooks Kassa sends (OpenAPI `webhooks`): one POST per event kind to the business's URL,
 * signed with `Signature` and the Standard Webhooks headers.
 */
export function registerWebhookEvents(registry: OpenAPIRegistry): void {
  for (const [type, event] of Object.entries(events))
    registry.registerWebhook({
      method: "post",
      path: type,
      tags: ["Webhooks sent"],
      operationId: `webhook_${type}`,
      summary: event.summary,
      description: `${event.description} The payload's \`type\` is \`${type}\`. Deduplicate on order_id plus type.`,
      security: [],
      request: { headers: WebhookHeadersSchema, body: jsonBody(WebhookPayloadSchema) },
      responses: {
        200: {
          description:
            "Acknowledged. Any other answer (or none within the timeout) is retried: 4 attempts in all.",
        },
      },
    });
}
