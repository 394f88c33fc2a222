import type { Subscription } from "@/db/schema";
import { isoMicros } from "@/lib/time";
import { intervalLabel } from "./interval";
import { managementUrl } from "./management-token";
import type { SubscriptionView } from "./subscription-schema";

/** The interface's Subscription object (its schema: ./subscription-schema.ts). */
export type { SubscriptionView };

const time = (value: string | null) => (value === null ? null : isoMicros(value));

export function subscriptionView(row: Subscription): SubscriptionView {
  return {
    id: row.id,
    status: row.status,
    amount: row.amount,
    unit_amount: row.unitAmount,
    currency: row.currency,
    interval: row.interval,
    interval_count: row.intervalCount,
    interval_label: intervalLabel(row.interval, row.intervalCount),
    customer: row.customer,
    customer_email: row.customerEmail,
    order_id: row.orderId,
    items: row.items,
    metadata: row.metadata,
    payment_method: row.paymentMethod,
    provider: row.provider,
    provider_subscription_id: row.providerSubscriptionId,
    cycles_count: row.cyclesCount,
    current_period_end: time(row.currentPeriodEnd),
    cancel_at_period_end: row.cancelAtPeriodEnd,
    canceled_at: time(row.canceledAt),
    canceled_by: row.canceledBy,
    cancel_requested_by: row.cancelRequestedBy,
    cancellation_reason: row.cancellationReason,
    initial_session_id: row.initialSessionId,
    management_url: managementUrl(row.id),
    created_at: isoMicros(row.createdAt),
  };
}
