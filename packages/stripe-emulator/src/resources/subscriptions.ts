import type Stripe from "stripe";
import {
  addIntervals,
  cancelSubscriptionNow,
  createSubscription,
  endSubscription,
  scheduleCancellation,
} from "../billing";
import { cardError, invalidRequest, unsupported } from "../errors";
import { emit, snapshot } from "../events";
import { Params } from "../form";
import { paginate } from "../list";
import { requireCustomer, requireObject } from "../lookup";
import { predictCharge } from "../payments";
import { listing, retrieving } from "../accepted-params";
import type { Route } from "../router";
import { type Ctx, idOf, timeForCustomer, timeOn } from "../state";
import {
  readItems,
  readDefaultPaymentMethod,
  readFutureTimestamp,
  readCancelAt,
  readCancellationDetails,
} from "./subscription-params";

function createFromParams(ctx: Ctx, params: Params): Stripe.Subscription {
  const customer = requireCustomer(ctx, params.string("customer", { required: true }), "customer");
  if (params.string("collection_method") === "send_invoice")
    throw unsupported("collection_method=send_invoice");
  const items = readItems(ctx, params);
  const now = timeForCustomer(ctx, customer.id);
  const defaultPaymentMethod = readDefaultPaymentMethod(ctx, params, customer.id) ?? null;
  let trialEnd: number | null = null;
  if (params.string("trial_end") !== "now") trialEnd = readFutureTimestamp(params, "trial_end", now) ?? null;
  const trialDays = params.int("trial_period_days", { min: 1, max: 730 });
  if (trialDays !== undefined && trialEnd === null) trialEnd = now + trialDays * 86_400;
  const anchor = readFutureTimestamp(params, "billing_cycle_anchor", now) ?? null;
  const recurring = items[0]?.price.recurring;
  if (anchor !== null && recurring) {
    const natural = addIntervals(now, recurring.interval as "day", recurring.interval_count, 1);
    if (anchor > natural) {
      throw invalidRequest(
        `billing_cycle_anchor cannot be later than next natural billing date (${natural}) for plan`,
        { param: "billing_cycle_anchor" },
      );
    }
  }
  const prorate =
    (params.oneOf("proration_behavior", ["create_prorations", "none", "always_invoice"] as const) ??
      "create_prorations") !== "none";
  const paymentBehavior =
    params.oneOf("payment_behavior", [
      "allow_incomplete",
      "default_incomplete",
      "error_if_incomplete",
      "pending_if_incomplete",
    ] as const) ?? "allow_incomplete";
  const offSession = params.bool("off_session") ?? false;
  const chargesNow =
    trialEnd === null && !(anchor !== null && !prorate) && items.some((i) => (i.price.unit_amount ?? 0) > 0);
  const paymentMethod =
    defaultPaymentMethod ?? idOf(customer.invoice_settings.default_payment_method as string | null);
  if (chargesNow && paymentBehavior !== "default_incomplete") {
    if (!paymentMethod) {
      throw invalidRequest(
        "This customer has no attached payment source or default payment method. Please consider adding a default payment method. For more information, visit https://stripe.com/docs/billing/subscriptions/payment-methods-setting#payment-method-priority.",
        { code: "resource_missing" },
      );
    }
    if (paymentBehavior === "error_if_incomplete") {
      const prediction = predictCharge(ctx, paymentMethod, { offSession });
      if (!prediction.ok) {
        throw cardError({
          code: prediction.code,
          decline_code: prediction.declineCode,
          message: prediction.message,
        });
      }
    }
  }
  const cancelAt = readCancelAt(params, null, now) ?? null;
  return createSubscription(ctx, {
    customer,
    items,
    defaultPaymentMethod,
    metadata: params.metadata("metadata") ?? {},
    description: params.string("description") ?? null,
    cancelAtPeriodEnd: params.bool("cancel_at_period_end") ?? false,
    cancelAt,
    trialEnd,
    billingCycleAnchor: anchor,
    prorate,
    paymentBehavior,
    offSession,
    saveDefaultPaymentMethod:
      params
        .object("payment_settings")
        ?.oneOf("save_default_payment_method", ["off", "on_subscription"] as const) ?? "off",
  });
}

function updateFromParams(ctx: Ctx, subscription: Stripe.Subscription, params: Params): Stripe.Subscription {
  const ended = subscription.status === "canceled" || subscription.status === "incomplete_expired";
  const allowedWhenEnded = new Set(["metadata", "cancellation_details", "expand"]);
  if (ended && params.keys().some((key) => !allowedWhenEnded.has(key))) {
    throw invalidRequest("A canceled subscription can only update its cancellation_details and metadata.");
  }
  const before = snapshot(subscription);
  const customer = idOf(subscription.customer as string) ?? "";
  const now = timeOn(ctx, idOf(subscription.test_clock as string | null));

  const atPeriodEnd = params.bool("cancel_at_period_end");
  if (atPeriodEnd !== undefined) scheduleCancellation(ctx, subscription, atPeriodEnd);
  if (params.has("cancel_at")) {
    const cancelAt = readCancelAt(params, subscription, now);
    if (cancelAt === null || cancelAt === undefined) {
      scheduleCancellation(ctx, subscription, false);
    } else {
      subscription.cancel_at = cancelAt;
      subscription.cancel_at_period_end = false;
      subscription.canceled_at = now;
      subscription.cancellation_details = {
        comment: subscription.cancellation_details?.comment ?? null,
        feedback: subscription.cancellation_details?.feedback ?? null,
        feedback_option: null,
        reason: "cancellation_requested",
      };
    }
  }
  const details = readCancellationDetails(params);
  if (details.comment !== undefined || details.feedback !== undefined) {
    subscription.cancellation_details = {
      comment:
        details.comment !== undefined
          ? details.comment
          : (subscription.cancellation_details?.comment ?? null),
      feedback:
        details.feedback !== undefined
          ? details.feedback
          : (subscription.cancellation_details?.feedback ?? null),
      feedback_option: null,
      reason: subscription.cancellation_details?.reason ?? null,
    };
  }
  const defaultPaymentMethod = readDefaultPaymentMethod(ctx, params, customer);
  if (defaultPaymentMethod !== undefined) subscription.default_payment_method = defaultPaymentMethod;
  const description = params.nullableString("description");
  if (description !== undefined) subscription.description = description;
  const metadata = params.metadata("metadata", subscription.metadata);
  if (metadata) subscription.metadata = metadata;
  if (JSON.stringify(before) !== JSON.stringify(subscription)) {
    emit(ctx, "customer.subscription.updated", subscription, { created: now, before });
  }
  return subscription;
}

export const subscriptionRoutes: Route[] = [
  // POST /v1/subscriptions
  {
    method: "POST",
    path: "/v1/subscriptions",
    stripeParams: "SubscriptionCreateParams",
    accepts: [
      "expand",
      "customer",
      "items[][price]",
      "items[][quantity]",
      "items[][metadata]",
      "items[][price_data][product]",
      "items[][price_data][currency]",
      "items[][price_data][unit_amount]",
      "items[][price_data][recurring][interval]",
      "items[][price_data][recurring][interval_count]",
      "default_payment_method",
      "metadata",
      "description",
      "cancel_at_period_end",
      "cancel_at",
      "trial_end",
      "trial_period_days",
      "billing_cycle_anchor",
      "proration_behavior",
      "payment_behavior",
      "off_session",
      "collection_method",
      "payment_settings[save_default_payment_method]",
    ],
    handler: ({ ctx, params }) => createFromParams(ctx, params),
  },
  // GET /v1/subscriptions/:id
  {
    method: "GET",
    path: "/v1/subscriptions/:id",
    stripeParams: "SubscriptionRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => requireObject(ctx, "subscription", path.id),
  },
  // POST /v1/subscriptions/:id
  {
    method: "POST",
    path: "/v1/subscriptions/:id",
    stripeParams: "SubscriptionUpdateParams",
    accepts: [
      "expand",
      "cancel_at_period_end",
      "cancel_at",
      "cancellation_details[comment]",
      "cancellation_details[feedback]",
      "default_payment_method",
      "description",
      "metadata",
    ],
    handler: ({ ctx, params, path }) =>
      updateFromParams(ctx, requireObject(ctx, "subscription", path.id), params),
  },
  // DELETE /v1/subscriptions/:id (cancel now)
  {
    method: "DELETE",
    path: "/v1/subscriptions/:id",
    stripeParams: "SubscriptionCancelParams",
    accepts: [
      "expand",
      "invoice_now",
      "prorate",
      "cancellation_details[comment]",
      "cancellation_details[feedback]",
    ],
    handler: ({ ctx, params, path }) => {
      const subscription = requireObject(ctx, "subscription", path.id);
      if (subscription.status === "canceled" || subscription.status === "incomplete_expired") {
        throw invalidRequest(`This subscription has already been canceled (${subscription.id}).`, {
          code: "subscription_canceled",
        });
      }
      const details = readCancellationDetails(params);
      cancelSubscriptionNow(ctx, subscription, {
        invoiceNow: params.bool("invoice_now") ?? false,
        prorate: params.bool("prorate") ?? false,
        comment: details.comment,
        feedback: details.feedback,
      });
      return subscription;
    },
  },
  // GET /v1/subscriptions
  {
    method: "GET",
    path: "/v1/subscriptions",
    stripeParams: "SubscriptionListParams",
    accepts: listing("customer", "status", "price", "test_clock"),
    handler: ({ ctx, params }) => {
      const customer = params.string("customer");
      const status = params.string("status");
      const price = params.string("price");
      const clock = params.string("test_clock");
      const all = ctx.account.store.all("subscription").filter((s) => {
        if (customer && s.customer !== customer) return false;
        if (clock && s.test_clock !== clock) return false;
        if (price && !s.items.data.some((item) => item.price.id === price)) return false;
        if (status === "all") return true;
        if (status === "ended") return s.status === "canceled" || s.status === "incomplete_expired";
        if (status) return s.status === status;
        return s.status !== "canceled" && s.status !== "incomplete_expired";
      });
      return paginate(all, params, "/v1/subscriptions");
    },
  },
];

/** "Resumed from the provider dashboard": a scheduled cancellation is withdrawn (an update event). */
export function resumeFromDashboard(ctx: Ctx, subscription: Stripe.Subscription): Stripe.Subscription {
  if (!subscription.cancel_at_period_end && subscription.cancel_at === null) {
    throw invalidRequest(`Subscription ${subscription.id} has no scheduled cancellation.`);
  }
  return updateFromParams(ctx, subscription, new Params({ cancel_at_period_end: "false" }));
}

/** "Canceled from the provider dashboard": now, or at the period end (re-synced by an update event). */
export function cancelFromDashboard(
  ctx: Ctx,
  subscription: Stripe.Subscription,
  atPeriodEnd: boolean,
): Stripe.Subscription {
  if (subscription.status === "canceled" || subscription.status === "incomplete_expired") {
    throw invalidRequest(`This subscription has already been canceled (${subscription.id}).`);
  }
  if (atPeriodEnd) {
    const before = snapshot(subscription);
    scheduleCancellation(ctx, subscription, true);
    emit(ctx, "customer.subscription.updated", subscription, {
      created: timeOn(ctx, idOf(subscription.test_clock as string | null)),
      before,
    });
  } else {
    subscription.canceled_at = timeOn(ctx, idOf(subscription.test_clock as string | null));
    endSubscription(ctx, subscription, { reason: "cancellation_requested" });
  }
  return subscription;
}
