import { z } from "zod";
import { isSafeText, required, safeText } from "@/lib/http/validation";

// Bodies of the merchant operations on a payment (decision 0015). Unknown fields are ignored.

export const maxRefundNoteLength = 500;

/** POST /payments/{session_id}/refund: `{amount?, reason?}`; null reads as absent. */
export const refundInputSchema = z.object({
  amount: z
    .number({ error: "amount must be an integer number of cents" })
    .int({ error: "amount must be an integer number of cents" })
    .min(1, { error: "amount must be at least 1 (cents); leave it out to refund what is left" })
    .nullish()
    .transform((v) => v ?? undefined),
  reason: z
    .string({ error: "reason must be a string" })
    .refine(isSafeText, safeText)
    .trim()
    .max(maxRefundNoteLength, { error: `reason must be at most ${maxRefundNoteLength} characters` })
    .nullish()
    .transform((v) => v || undefined),
});
export type RefundInput = z.infer<typeof refundInputSchema>;

/** POST /payments/{session_id}/review: `{decision: "accept" | "decline"}`. */
export const reviewInputSchema = z.object({
  decision: z.enum(["accept", "decline"], {
    error: (i) => required("decision")(i) ?? 'decision must be "accept" or "decline"',
  }),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;
