import type Stripe from "stripe";
import { periodOf, type SubscriptionInput } from "../billing";
import { invalidRequest, missingParam, unsupported } from "../errors";
import { type Params } from "../form";
import { requireObject } from "../lookup";
import { type Ctx } from "../state";
import { createPrice, readCurrency, readRecurring } from "./products";

// Reading the parameters of a subscription request (create and update).

export function readItems(ctx: Ctx, params: Params): SubscriptionInput["items"] {
  const items = params.objects("items");
  if (!items || items.length === 0) throw missingParam("items");
  if (items.length > 20)
    throw invalidRequest("A subscription can have at most 20 items.", { param: "items" });
  const read = items.map((item) => {
    const quantity = item.int("quantity", { min: 1 }) ?? 1;
    const metadata = item.metadata("metadata") ?? {};
    const priceId = item.string("price") ?? item.string("plan");
    if (priceId) {
      const price = requireObject(ctx, "price", priceId, item.name("price"));
      if (!price.recurring) {
        throw invalidRequest(
          "The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.",
          { param: item.name("price") },
        );
      }
      return { price, quantity, metadata };
    }
    const data = item.object("price_data");
    if (!data) throw missingParam(item.name("price"));
    const product = data.string("product", { required: true });
    requireObject(ctx, "product", product, data.name("product"));
    const price = createPrice(ctx, {
      currency: readCurrency(data),
      unitAmount: data.int("unit_amount", { required: true, min: 0 }),
      product,
      recurring: readRecurring(data.object("recurring", { required: true })),
      active: false,
    });
    return { price, quantity, metadata };
  });
  const first = read[0]?.price;
  for (const { price } of read) {
    if (
      price.currency !== first?.currency ||
      price.recurring?.interval !== first.recurring?.interval ||
      price.recurring?.interval_count !== first.recurring?.interval_count
    ) {
      throw invalidRequest("Currency and interval fields must match across all plans on this subscription.", {
        param: "items",
      });
    }
  }
  return read;
}

/** A payment method for a subscription must already be attached to its customer. */
export function readDefaultPaymentMethod(
  ctx: Ctx,
  params: Params,
  customer: string,
): string | null | undefined {
  const id = params.nullableString("default_payment_method");
  if (!id) return id;
  const paymentMethod = ctx.account.store.get("payment_method", id);
  if (!paymentMethod || paymentMethod.customer !== customer) {
    throw invalidRequest(
      `The customer does not have a payment method with the ID ${id}. The payment method must be attached to the customer.`,
      { param: "default_payment_method", code: "resource_missing" },
    );
  }
  return id;
}

export function readFutureTimestamp(params: Params, key: string, now: number): number | undefined {
  const value = params.int(key);
  if (value !== undefined && value <= now) {
    throw invalidRequest(`Invalid timestamp: must be an integer Unix timestamp in the future.`, {
      param: key,
      code: "parameter_invalid_integer",
    });
  }
  return value;
}

/** `cancel_at`: a future timestamp, `min_period_end`/`max_period_end` (the period end), or "" to clear. */
export function readCancelAt(
  params: Params,
  subscription: Stripe.Subscription | null,
  now: number,
): number | null | undefined {
  const raw = params.nullableString("cancel_at");
  if (raw === null || raw === undefined) return raw;
  if (raw === "min_period_end" || raw === "max_period_end") {
    if (!subscription) throw unsupported(`cancel_at=${raw} when creating a subscription`);
    return periodOf(subscription).end;
  }
  return readFutureTimestamp(params, "cancel_at", now);
}

export function readCancellationDetails(params: Params) {
  const details = params.object("cancellation_details");
  return {
    comment: details?.nullableString("comment"),
    feedback: details?.oneOf("feedback", [
      "customer_service",
      "low_quality",
      "missing_features",
      "other",
      "switched_service",
      "too_complex",
      "too_expensive",
      "unused",
    ] as const),
  };
}
