import type Stripe from "stripe";
import { type Ctx, idOf } from "../state";

const formatAmount = (amount: number, currency: string) =>
  `${currency === "usd" ? "$" : `${currency.toUpperCase()} `}${(amount / 100).toFixed(2)}`;

export function productName(ctx: Ctx, price: Stripe.Price): string {
  const productId = idOf(price.product as string | { id: string });
  return (productId && ctx.account.store.get("product", productId)?.name) || "Subscription";
}

export function planOf(price: Stripe.Price): Stripe.Plan {
  return {
    id: price.id,
    object: "plan",
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: "per_unit",
    created: price.created,
    currency: price.currency,
    interval: price.recurring?.interval ?? "month",
    interval_count: price.recurring?.interval_count ?? 1,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: "licensed",
  };
}

export interface LineInput {
  amount: number;
  description: string;
  start: number;
  end: number;
  item: Stripe.SubscriptionItem;
  proration: boolean;
}

export function itemLines(
  ctx: Ctx,
  subscription: Stripe.Subscription,
  start: number,
  end: number,
): LineInput[] {
  return subscription.items.data.map((item) => {
    const quantity = item.quantity ?? 1;
    const unit = item.price.unit_amount ?? 0;
    const recurring = item.price.recurring;
    const every =
      recurring && recurring.interval_count > 1
        ? `every ${recurring.interval_count} ${recurring.interval}s`
        : (recurring?.interval ?? "");
    return {
      amount: unit * quantity,
      description: `${quantity} × ${productName(ctx, item.price)} (at ${formatAmount(unit, item.price.currency)} / ${every})`,
      start,
      end,
      item,
      proration: false,
    };
  });
}
