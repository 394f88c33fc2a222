import type Stripe from "stripe";
import { newObjectId } from "../ids";
import type { Ctx } from "../state";

/** Stripe's US card pricing, for the balance transaction of a charge: 2.9% + 30¢. */
export const processingFee = (amount: number) => Math.round(amount * 0.029) + 30;

export function createBalanceTransaction(
  ctx: Ctx,
  fields: {
    amount: number;
    fee: number;
    currency: string;
    source: string;
    type: "charge" | "refund" | "refund_failure" | "adjustment";
    created: number;
    description: string | null;
    /** Stripe's `reporting_category` when it is not the type (`dispute`, `dispute_reversal`). */
    category?: string;
    /** What the fee is (default: Stripe processing fees). */
    feeDescription?: string;
  },
): Stripe.BalanceTransaction {
  const transaction: Stripe.BalanceTransaction = {
    id: newObjectId("txn"),
    object: "balance_transaction",
    amount: fields.amount,
    available_on: fields.created + 2 * 86_400,
    balance_type: "payments",
    created: fields.created,
    currency: fields.currency,
    description: fields.description,
    exchange_rate: null,
    fee: fields.fee,
    fee_details: fields.fee
      ? [
          {
            amount: fields.fee,
            application: null,
            currency: fields.currency,
            description: fields.feeDescription ?? "Stripe processing fees",
            type: "stripe_fee",
          },
        ]
      : [],
    net: fields.amount - fields.fee,
    reporting_category: fields.category ?? fields.type,
    source: fields.source,
    status: "pending",
    type: fields.type,
  };
  return ctx.account.store.insert("balance_transaction", transaction);
}
