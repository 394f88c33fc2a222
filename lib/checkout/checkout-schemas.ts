import { z } from "zod";
import { paymentStatuses } from "@/db/schema";

/**
 * What the hosted checkout page's own endpoints answer, as zod schemas: the code's types are
 * inferred from them and the OpenAPI document is generated from them.
 */

export const checkoutStates = [
  "open",
  "failed",
  "processing",
  "pending_review",
  "succeeded",
  "declined",
  "expired",
] as const;

export const CheckoutStatusSchema = z
  .strictObject({
    session_id: z.string(),
    state: z
      .enum(checkoutStates)
      .meta({ description: "What the page shows, derived from the payment's status." }),
    status: z.enum(paymentStatuses).nullable(),
    amount: z.int(),
    currency: z.string(),
    payment_method: z.string().nullable(),
    failure_code: z
      .string()
      .nullable()
      .meta({
        description: "Why the last attempt failed (`card_declined/insufficient_funds`, …), when it did.",
      }),
  })
  .meta({ id: "CheckoutStatus", description: "The live state of a session, for the hosted page's polling." });
export type CheckoutStatus = z.infer<typeof CheckoutStatusSchema>;

export const CheckoutNextSchema = z
  .discriminatedUnion("type", [
    z.strictObject({ type: z.literal("redirect"), url: z.string() }),
    z.strictObject({ type: z.literal("authenticate"), challengeUrl: z.string() }),
  ])
  .meta({
    id: "CheckoutNext",
    description: "Where the page sends the customer next: a provider's page, or 3-D Secure.",
  });

export const CheckoutPayResultSchema = CheckoutStatusSchema.extend({
  next: CheckoutNextSchema.nullable(),
}).meta({
  id: "CheckoutPayResult",
});
export type CheckoutPayResult = z.infer<typeof CheckoutPayResultSchema>;
