import { z } from "zod";
import { disputeStatuses } from "@/db/schema";
import { isSafeText, listLimitParam, safeText } from "@/lib/http/validation";

/** Stripe's evidence fields that hold text. */
export const textEvidenceFields = [
  "access_activity_log",
  "billing_address",
  "cancellation_policy_disclosure",
  "cancellation_rebuttal",
  "customer_email_address",
  "customer_name",
  "customer_purchase_ip",
  "duplicate_charge_explanation",
  "duplicate_charge_id",
  "product_description",
  "refund_policy_disclosure",
  "refund_refusal_explanation",
  "service_date",
  "shipping_address",
  "shipping_carrier",
  "shipping_date",
  "shipping_tracking_number",
  "uncategorized_text",
] as const;

/** Stripe's evidence fields that hold an uploaded file (`file_…`, purpose `dispute_evidence`). */
export const fileEvidenceFields = [
  "cancellation_policy",
  "customer_communication",
  "customer_signature",
  "duplicate_charge_documentation",
  "receipt",
  "refund_policy",
  "service_documentation",
  "shipping_documentation",
  "uncategorized_file",
] as const;

/** Stripe's limit on all evidence text together. */
export const maxEvidenceCharacters = 150_000;

const textField = z
  .string({ error: "must be a string" })
  .max(20_000, { error: "must be at most 20000 characters" })
  .refine(isSafeText, safeText);
const fileField = z.string({ error: "must be a file id" }).regex(/^file_[0-9A-Za-z]{1,64}$/, {
  error: "must be the id of an uploaded file (file_…)",
});

export const EvidenceSchema = z
  .strictObject({
    ...Object.fromEntries(textEvidenceFields.map((field) => [field, textField.optional()])),
    ...Object.fromEntries(fileEvidenceFields.map((field) => [field, fileField.optional()])),
  } as Record<
    (typeof textEvidenceFields)[number] | (typeof fileEvidenceFields)[number],
    z.ZodOptional<z.ZodString>
  >)
  .refine(
    (evidence) =>
      textEvidenceFields.reduce((sum, field) => sum + (evidence[field]?.length ?? 0), 0) <=
      maxEvidenceCharacters,
    { error: `the evidence text may not exceed ${maxEvidenceCharacters} characters in all` },
  )
  .meta({
    id: "DisputeEvidence",
    description:
      'Stripe\'s evidence fields. Text fields take text; file fields take the id of a file uploaded for evidence. In the sandbox, `uncategorized_text: "winning_evidence"` wins the dispute and `"losing_evidence"` loses it.',
  });
export type Evidence = z.infer<typeof EvidenceSchema>;

export const EvidenceRequestSchema = z
  .strictObject({
    evidence: EvidenceSchema,
    submit: z.boolean({ error: "submit must be a boolean" }).optional().meta({
      description: "Send the evidence to the card issuer now (default false: staged, can be changed).",
    }),
  })
  .meta({ id: "DisputeEvidenceRequest" });
export type EvidenceRequest = z.infer<typeof EvidenceRequestSchema>;

const timestamp = z.string().meta({ format: "date-time" });

export const DisputeSchema = z
  .strictObject({
    id: z.string().meta({ description: "Prefix `dsp_`." }),
    session_id: z.string().meta({ description: "The disputed payment's session." }),
    amount: z.int().meta({ description: "Disputed cents." }),
    reason: z
      .string()
      .meta({ description: "Stripe's reason: `fraudulent`, `product_not_received`, `general`, …" }),
    status: z.enum(disputeStatuses).meta({
      description:
        "Stripe's values. `warning_*`: an inquiry (nothing withdrawn yet); `needs_response`: answer before `evidence_due_by`; `under_review`: evidence submitted; `won`, `lost`, `warning_closed`: ended.",
    }),
    outcome: z
      .enum(["won", "lost"])
      .nullable()
      .meta({ description: "Null while open; `won` (money back) or `lost` once ended." }),
    evidence_due_by: timestamp.nullable(),
    evidence: z.record(z.string(), z.string()).meta({ description: "Evidence staged or submitted so far." }),
    evidence_submitted: z.boolean(),
    created_at: timestamp,
  })
  .meta({ id: "Dispute", description: "A dispute (chargeback or inquiry) of a card payment." });
export type DisputeView = z.infer<typeof DisputeSchema>;

export const DisputeListSchema = z
  .strictObject({ data: z.array(DisputeSchema), has_more: z.boolean() })
  .meta({ id: "DisputeList" });
export type DisputeList = z.infer<typeof DisputeListSchema>;

export const disputeListQuerySchema = z.object({
  session_id: z
    .string()
    .regex(/^cs_[0-9A-Za-z]{1,64}$/, { error: "session_id must be a session id" })
    .optional(),
  status: z
    .enum(disputeStatuses, { error: `status must be one of ${disputeStatuses.join(", ")}` })
    .optional(),
  limit: listLimitParam().optional(),
  starting_after: z
    .string()
    .regex(/^dsp_[0-9A-Za-z]{1,64}$/, { error: "starting_after must be a dispute id" })
    .optional(),
});
export type DisputeListQuery = z.infer<typeof disputeListQuerySchema>;

export const disputeIdPattern = /^dsp_[0-9A-Za-z]{1,64}$/;
