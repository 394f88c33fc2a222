/**
 * The body of a webhook delivery, as the interface's "Payload fields" describe it (docs/webhooks.md).
 * Optional fields are left out rather than sent as `null`.
 */
export type WebhookEventType =
  | "succeeded"
  | "pending_review"
  | "declined"
  | "refunded"
  | "expired"
  | "incomplete"
  | "subscription_payment_failed"
  | "subscription_canceled";

export type WebhookPayload = {
  type: WebhookEventType;
  /** Payment amount in cents. */
  amount: number;
  currency: string;
  /** Fees in cents, when calculated. */
  fees?: number;
  /** The session's metadata plus the session id. */
  metadata: Record<string, unknown> & { integration_session_id: string };
  /** Provider used; `"none"` on an `expired` event of a session where no method was chosen. */
  provider: string;
  /** The business's order id; `{order_id}-{cycle}` for renewals. */
  order_id: string;
  items: { name: string; quantity: number; price: number }[];
  payment_method?: string;
  /** The payer's billing details, when collected. */
  customer?: {
    name?: string;
    email?: string;
    phone?: string;
    address?: {
      line1?: string;
      line2?: string;
      city?: string;
      state?: string;
      postal_code?: string;
      country?: string;
    };
  };
  /** `incomplete` only: cents still to pay. */
  amount_remaining?: number;
  /** On subscription events and subscription payments. */
  subscription?: {
    id: string;
    cycle: number;
    current_period_end: string | null;
    management_url: string | null;
  };
  /** `subscription_payment_failed` only (`authentication_required` when the bank wants the customer). */
  failure_reason?: string;
  /** `refunded` only: this refund, and the cents refunded so far (this refund included). */
  refund?: { id: string; amount: number; amount_refunded: number };
  /** Present (true) on events sent by POST /webhooks/test. */
  test?: boolean;
};
