import { z } from "zod";

/** POST /session's answer: postSession builds it typed by this schema, the OpenAPI document shows it. */
export const SessionPaymentErrorSchema = z
  .strictObject({
    success: z.literal(false),
    message: z.string(),
    error_type: z.string().meta({ description: "The provider's or Kassa's code for the failure." }),
  })
  .meta({
    id: "SessionPaymentError",
    description:
      "Starting the forced redirect-based payment failed; the session still exists and the customer can be sent to its checkout_url.",
  });

export const SessionCreatedSchema = z
  .strictObject({
    session_id: z.string().meta({ example: "cs_01JD8Y3X7Q2W5E9R4T6Y8U0I2O" }),
    checkout_url: z
      .string()
      .meta({ description: "`{checkout_url}/{session_id}`: where to send the customer." }),
    redirect_url: z
      .string()
      .optional()
      .meta({
        description: "Only when `paymentMethodId` named a redirect-based method and its payment started.",
      }),
    payment_error: SessionPaymentErrorSchema.optional(),
  })
  .meta({ id: "SessionCreated" });
export type SessionCreated = z.infer<typeof SessionCreatedSchema>;
