import { z } from "zod";
import { paymentStatuses, refundReasons, refundStatuses } from "@/db/schema";

/**
 * The payment objects the API answers, as zod schemas: the handlers' return types are inferred
 * from them and the OpenAPI document is generated from them, so the two cannot drift.
 */

const timestamp = z
  .string()
  .meta({ format: "date-time", description: "ISO 8601, UTC, microsecond precision." });

export const SessionItemSchema = z
  .strictObject({
    name: z.string(),
    quantity: z.int().min(1),
    price: z.int().min(1).meta({ description: "Cents." }),
  })
  .meta({ id: "SessionItem" });

export const MetadataSchema = z
  .record(z.string(), z.unknown())
  .meta({ id: "Metadata", description: "Free key-value pairs attached to the session." });

const nullableText = z.string().nullable().optional();

export const CustomerDetailsSchema = z
  .strictObject({
    name: nullableText,
    email: nullableText,
    phone: nullableText,
    address: z
      .strictObject({
        line1: nullableText,
        line2: nullableText,
        city: nullableText,
        state: nullableText,
        postal_code: nullableText,
        country: nullableText.meta({ description: "Two letters." }),
      })
      .nullable()
      .optional(),
  })
  .meta({ id: "CustomerDetails", description: "Billing data collected at payment." });

export const PaymentDetailsSchema = z
  .looseObject({
    type: z.string().meta({ description: "e.g. `card`; the shapes of other types are not fixed." }),
    card: z
      .strictObject({
        brand: z.string(),
        last4: z.string(),
        exp_month: z.string(),
        exp_year: z.string(),
        country: z.string().nullable(),
      })
      .optional(),
  })
  .meta({ id: "PaymentDetails" });

export const PaymentSchema = z
  .strictObject({
    session_id: z.string(),
    status: z
      .enum(paymentStatuses)
      .nullable()
      .meta({ description: "Null when no payment attempt was made." }),
    amount: z.int().meta({ description: "Gross amount in cents (what the customer pays)." }),
    fees: z
      .int()
      .nullable()
      .meta({ description: "Total fees in cents; null until the payment is completed." }),
    net_amount: z
      .int()
      .nullable()
      .meta({ description: "amount - fees, what the business receives; null until completed." }),
    currency: z.string().meta({ example: "USD" }),
    order_id: z.string(),
    customer: z.string(),
    description: z.string(),
    items: z.array(SessionItemSchema),
    metadata: MetadataSchema,
    payment_method: z
      .string()
      .nullable()
      .meta({ description: "Without provider prefix: `credit`, `apple_pay`, `pix_br` …" }),
    provider: z.string().nullable(),
    created_at: timestamp,
    customer_details: CustomerDetailsSchema.nullable(),
    payment_details: PaymentDetailsSchema.nullable(),
    ip: z.string().nullable(),
    country: z.string().nullable().meta({ description: "Two-letter code from IP geolocation." }),
    user_agent: z.string().nullable(),
  })
  .meta({ id: "Payment", description: "A session's payment (GET /payment/{session_id})." });
export type PaymentView = z.infer<typeof PaymentSchema>;

export const PaymentMethodSchema = z
  .strictObject({
    name: z.string(),
    image: z.string().meta({ description: "Logo URL." }),
    countries: z
      .array(z.string())
      .nullable()
      .meta({ description: "ISO 3166-1 alpha-2; null or empty: everywhere." }),
    currencies: z
      .array(z.string())
      .nullable()
      .meta({ description: "ISO 4217; null or empty: all currencies." }),
    fees: z.strictObject({
      static_fees: z.number().meta({ description: "Fixed fee in dollars." }),
      percent_fees: z.number().meta({ description: "Decimal fraction: 0.029 is 2.9%." }),
    }),
  })
  .meta({ id: "PaymentMethod" });
export type MethodView = z.infer<typeof PaymentMethodSchema>;

export const PaymentMethodsSchema = z
  .record(z.string(), PaymentMethodSchema)
  .meta({ id: "PaymentMethods", description: "Keyed by payment method id." });

export const BalanceSchema = z
  .strictObject({
    balance: z.int().meta({ description: "Business balance in cents." }),
    payout_balance: z.int().meta({ description: "Payout balance in cents." }),
  })
  .meta({ id: "Balance" });
export type BalanceView = z.infer<typeof BalanceSchema>;

export const RefundSchema = z
  .strictObject({
    id: z.string(),
    session_id: z.string(),
    amount: z.int().meta({ description: "Cents given back to the customer by this refund." }),
    currency: z.string(),
    status: z
      .enum(refundStatuses)
      .meta({
        description:
          "`pending` (sent, or waiting for the provider: retried), `succeeded`, or `failed` (refused; nothing moved).",
      }),
    reason: z.enum(refundReasons),
    note: z
      .string()
      .nullable()
      .meta({ description: "The merchant's free-text `reason` given with the refund." }),
    balance_debit: z
      .int()
      .meta({ description: "Cents taken from the business balance: its share of the net amount." }),
    amount_refunded: z
      .int()
      .meta({
        description: "The payment's cents refunded so far by all its refunds, pending included, failed not.",
      }),
    failure_message: z.string().nullable().meta({ description: "The provider's reason when `failed`." }),
    created_at: timestamp,
    completed_at: timestamp.nullable(),
  })
  .meta({ id: "Refund" });
export type RefundView = z.infer<typeof RefundSchema>;

export const RefundListSchema = z
  .strictObject({ data: z.array(RefundSchema), has_more: z.boolean() })
  .meta({ id: "RefundList", description: "Newest first." });
export type RefundList = z.infer<typeof RefundListSchema>;
