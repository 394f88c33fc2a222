import type { Db } from "@/db/client";
import type { Business, Payment, Session } from "@/db/schema";
import { issueReceipt } from "@/lib/receipts/issue-receipt";
import { cancelRefundedSubscription } from "@/lib/subscriptions/cancel-refunded-subscription";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";
import { succeededRefundTotal } from "./reserve-refund";

/**
 * A merchant's or the provider's refund succeeded (inside the transaction that records it): the
 * `refunded` event (`refunded_again` after the order's first, decision 0042), and the end of a
 * plan whose signup payment is now refunded in full; the payer's refund receipt (decision 0051).
 */
export async function announceRefund(
  tx: Db,
  input: { business: Business; session: Session; payment: Payment; refund: { id: string; amount: number; completedAt?: string | null } },
): Promise<void> {
  const { business, session, payment, refund } = input;
  const amountRefunded = await succeededRefundTotal(tx, payment.id);
  await emitWebhookEvent(tx, {
    business,
    session,
    payment,
    type: "refunded",
    refund: { id: refund.id, amount: refund.amount, amountRefunded },
  });
  await issueReceipt(tx, { business, session, payment, refund });
  await cancelRefundedSubscription(tx, business, payment, amountRefunded);
}
