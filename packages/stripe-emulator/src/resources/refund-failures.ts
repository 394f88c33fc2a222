import type Stripe from "stripe";
import { emit, snapshot } from "../events";
import { createBalanceTransaction } from "../payments";
import { type Ctx, clockOfCustomer, idOf, timeForCustomer } from "../state";

/**
 * How long after its creation a refund of 4000000000005126 turns `failed`, or one of
 * 4000000000007726 turns `succeeded`. Stripe documents only "some time later"; the emulator uses
 * 30 seconds on the refund's clock (its customer's test clock when advanced, else the emulator's
 * clock: a timer wakes the account then, and any request after that time does it too).
 */
export const refundFailureDelaySeconds = 30;

/** The test-card behaviour of the card a refund goes back to (its charge's payment method). */
export function refundCard(ctx: Ctx, paymentMethod: Stripe.Refund["payment_method"]) {
  const pm = idOf(paymentMethod as string | null);
  const behavior = pm ? ctx.account.cards.get(pm)?.behavior : undefined;
  return behavior?.kind === "succeed" ? behavior : undefined;
}

/** Refunds of 4000000000005126 still `succeeded`, and of 4000000000007726 still `pending`: each changes at its due time. */
export function dueRefundFailures(ctx: Ctx, clockId: string | null): { at: number; run: () => void }[] {
  const due: { at: number; run: () => void }[] = [];
  for (const refund of ctx.account.store.all("refund")) {
    if (clockOfCustomer(ctx, idOf(refund.customer)) !== clockId) continue;
    const card = refundCard(ctx, refund.payment_method);
    const at = refund.created + refundFailureDelaySeconds;
    if (refund.status === "succeeded" && card?.refundFailsLater)
      due.push({ at, run: () => failRefund(ctx, refund) });
    if (refund.status === "pending" && card?.refundPendsFirst)
      due.push({ at, run: () => settleRefund(ctx, refund) });
  }
  return due;
}

/** A pending refund (4000000000007726) reaches the card: `succeeded`, with `charge.refund.updated` and `refund.updated`. */
function settleRefund(ctx: Ctx, refund: Stripe.Refund): void {
  const created = timeForCustomer(ctx, idOf(refund.customer));
  const before = snapshot(refund);
  refund.status = "succeeded";
  emit(ctx, "charge.refund.updated", refund, { created, before });
  emit(ctx, "refund.updated", refund, { created, before });
}

/**
 * A refund the card network returned (Stripe: the card was closed or expired): the money goes back
 * to the account balance (a `refund_failure` balance transaction), the charge no longer counts it
 * as refunded, and `charge.refund.updated`, `refund.updated` and `refund.failed` are sent.
 */
export function failRefund(ctx: Ctx, refund: Stripe.Refund): void {
  const created = timeForCustomer(ctx, idOf(refund.customer));
  const before = snapshot(refund);
  refund.status = "failed";
  refund.failure_reason = "expired_or_canceled_card";
  refund.failure_balance_transaction = createBalanceTransaction(ctx, {
    amount: refund.amount,
    fee: 0,
    currency: refund.currency,
    source: refund.id,
    type: "refund_failure",
    created,
    description: "REFUND FAILURE",
  }).id;
  const chargeId = idOf(refund.charge as string | null);
  const charge = chargeId ? ctx.account.store.get("charge", chargeId) : undefined;
  if (charge) {
    charge.amount_refunded = Math.max(0, charge.amount_refunded - refund.amount);
    charge.refunded = charge.amount_refunded >= charge.amount_captured;
  }
  emit(ctx, "charge.refund.updated", refund, { created, before });
  emit(ctx, "refund.updated", refund, { created, before });
  emit(ctx, "refund.failed", refund, { created });
}
