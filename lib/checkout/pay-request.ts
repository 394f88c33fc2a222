import { z } from "zod";

// Free text the customer typed: trimmed, bounded, and without NUL or other control characters
// (Postgres refuses NUL in text and jsonb; nothing legitimate needs the others).
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "must not contain control characters");

const optionalText = (max: number) =>
  text(max)
    .optional()
    .transform((s) => (s ? s : undefined));

/** Body of POST {base_url}/checkout/sessions/{id}/pay: what the hosted page sends (PayInput). */
export const payRequestSchema = z
  .object({
    paymentMethodId: z.string().regex(/^[a-z0-9_]{1,64}$/, "must be a payment method id"),
    card: z
      .object({
        number: z.string().regex(/^\d{12,19}$/, "must be 12 to 19 digits"),
        expMonth: z.number().int().min(1).max(12),
        expYear: z.number().int().min(2000).max(2200),
        cvc: z.string().regex(/^\d{3,4}$/, "must be 3 or 4 digits"),
      })
      .strict()
      .optional(),
    stripePaymentMethodId: z
      .string()
      .regex(/^pm_[A-Za-z0-9_]{1,200}$/, "must be a Stripe PaymentMethod id")
      .optional(),
    customerDetails: z
      .object({
        name: optionalText(200),
        email: z
          .email()
          .max(254)
          .optional()
          .or(z.literal("").transform(() => undefined)),
        phone: optionalText(40),
        address: z
          .object({
            line1: optionalText(200),
            line2: optionalText(200),
            city: optionalText(100),
            state: optionalText(100),
            postal_code: optionalText(20),
            country: z
              .string()
              .regex(/^[A-Za-z]{2}$/, "must be a two-letter country code")
              .transform((c) => c.toUpperCase())
              .optional(),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** What the page sends (before parsing); the handler gets `ParsedPayRequest`. */
export type PayRequest = z.input<typeof payRequestSchema>;
export type ParsedPayRequest = z.output<typeof payRequestSchema>;
