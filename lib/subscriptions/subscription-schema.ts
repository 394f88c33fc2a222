import { z } from "zod";
import { subscriptionActors, subscriptionStatuses } from "@/db/schema";
import { MetadataSchema, SessionItemSchema } from "@/lib/payments/payment-schemas";
import { intervals } from "@/lib/sessions/session-input";

/**
 * The interface's Subscription object as a zod schema: subscriptionView's return type is inferred
 * from it and the OpenAPI document is generated from it.
 */

const timestamp = z.string().meta({ format: "date-time" });

export const SubscriptionSchema = z
  .strictObject({
    id: z.string().meta({ description: "Prefix `psub_`." }),
    status: z.enum(subscriptionStatuses),
    amount: z.int().meta({ description: "Business price per period in cents." }),
    unit_amount: z.int().meta({ description: "Amount charged at each renewal in cents, fixed at signup." }),
    currency: z.string().meta({ example: "USD" }),
    interval: z.enum(intervals),
    interval_count: z.int().min(1),
    interval_label: z.string().meta({ example: "every 3 months" }),
    customer: z.string().nullable(),
    customer_email: z.string().nullable(),
    order_id: z
      .string()
      .meta({ description: "`order_id` of the signup session; renewals use `{order_id}-{cycle}`." }),
    items: z.array(SessionItemSchema),
    metadata: MetadataSchema,
    payment_method: z.string().meta({ description: "`credit`, `apple_pay` or `google_pay`." }),
    provider: z.string().meta({ description: "The card-billing provider charging renewals." }),
    provider_subscription_id: z.string().nullable(),
    cycles_count: z.int().min(1),
    current_period_end: timestamp.nullable(),
    cancel_at_period_end: z.boolean(),
    canceled_at: timestamp.nullable(),
    canceled_by: z.enum(subscriptionActors).nullable(),
    cancel_requested_by: z.enum(subscriptionActors).nullable(),
    cancellation_reason: z
      .string()
      .nullable()
      .meta({
        description:
          "`requested_by_merchant`, `requested_by_customer`, `initial_payment_refunded`, `admin`, `setup_failed:<code>`, or a provider reason. Unknown values are informational.",
      }),
    initial_session_id: z.string(),
    management_url: z.string().nullable().meta({ description: "The customer's self-service page." }),
    created_at: timestamp,
  })
  .meta({ id: "Subscription" });
export type SubscriptionView = z.infer<typeof SubscriptionSchema>;

export const SubscriptionListSchema = z
  .strictObject({ data: z.array(SubscriptionSchema), has_more: z.boolean() })
  .meta({ id: "SubscriptionList", description: "Oldest first; the next page starts after the last id." });
export type SubscriptionList = z.infer<typeof SubscriptionListSchema>;
