import { z } from "zod";

/** Body of POST /subscriptions/{id}/cancel (optional): `at_period_end` omitted, null or "" mean true. */
export const cancelInputSchema = z.object({
  at_period_end: z
    .union([z.boolean(), z.null(), z.literal("")], { error: "at_period_end must be a boolean" })
    .optional()
    .transform((value) => (typeof value === "boolean" ? value : true))
    .meta({
      description:
        "True (default): end at current_period_end, undoable by resume. False: end now, unpaid invoices voided, no refund. Omitted, null or an empty string mean true.",
    }),
});

/** Body of POST /subscriptions/{id}/resume: none is needed; any JSON object is accepted and ignored. */
export const resumeInputSchema = z.object({}).meta({ description: "No fields; the body may be empty." });
