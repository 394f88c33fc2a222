import { z } from "zod";
import { acceptDispute, submitDisputeEvidence, uploadEvidenceFile } from "@/lib/disputes/answer-dispute";
import { EvidenceRequestSchema, EvidenceSchema, type fileEvidenceFields, textEvidenceFields } from "@/lib/disputes/dispute-schemas";
import { ValidationError } from "@/lib/errors";
import { staffAction } from "./staff-action";

/** The evidence form's text fields (Stripe's names), in the order the form shows them. */
export const dashboardTextEvidence = [
  "product_description",
  "customer_name",
  "customer_email_address",
  "customer_purchase_ip",
  "billing_address",
  "service_date",
  "shipping_carrier",
  "shipping_tracking_number",
  "refund_policy_disclosure",
  "uncategorized_text",
] as const satisfies readonly (typeof textEvidenceFields)[number][];

/** The evidence form's file fields (Stripe's names): each upload is stored at Stripe, its `file_…` id sent. */
export const dashboardFileEvidence = ["customer_communication", "receipt", "uncategorized_file"] as const satisfies readonly (typeof fileEvidenceFields)[number][];

/** One evidence file from the dashboard (the form's body is bounded below Next's 2 MB: server/body-limit.ts). */
export const maxEvidenceFileBytes = 1024 * 1024;

const disputeId = z.string({ error: "dispute is required" }).regex(/^dsp_[0-9A-Za-z]{1,64}$/, { error: "Unknown dispute" });

/** Each file field as a message names it (the form's labels). */
export const fileEvidenceLabels: Record<(typeof dashboardFileEvidence)[number], string> = {
  customer_communication: "The customer communication file",
  receipt: "The receipt file",
  uncategorized_file: "The other evidence file",
};

/** A file input left empty (the browser sends a nameless or "blob" file of 0 bytes) is absent. */
const evidenceFile = (field: (typeof dashboardFileEvidence)[number]) =>
  z.preprocess(
    (v) => (v instanceof Blob && v.size === 0 ? undefined : v),
    z
      .instanceof(File, { error: `${fileEvidenceLabels[field]} must be a file` })
      .refine((f) => f.size <= maxEvidenceFileBytes, { error: `${fileEvidenceLabels[field]} must be at most 1 MB` })
      .optional(),
  );

/** The form's non-blank text fields (Stripe's names), as the API's `evidence`. */
function textEvidenceOf(form: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of textEvidenceFields) {
    const value = form[field];
    if (typeof value === "string" && value.trim()) out[field] = value.trim();
  }
  return out;
}

// The form's text fields are checked by the API's own EvidenceSchema (a message names the field).
const evidenceForm = z.preprocess(
  (form) => (typeof form === "object" && form !== null ? { ...form, evidence: textEvidenceOf(form as Record<string, unknown>) } : form),
  z.object({
    dispute: disputeId,
    submit: z.enum(["true", "false"], { error: "Choose save or submit" }).transform((v) => v === "true"),
    evidence: EvidenceSchema,
    customer_communication: evidenceFile("customer_communication"),
    receipt: evidenceFile("receipt"),
    uncategorized_file: evidenceFile("uncategorized_file"),
  }),
);

const submitEvidence = staffAction({
  permission: "refund",
  schema: evidenceForm,
  run: async ({ db, businessId, input }) => {
    const evidence: Record<string, string> = { ...(input.evidence as Record<string, string>) };
    for (const field of dashboardFileEvidence) {
      const file = input[field];
      if (!file) continue;
      evidence[field] = await uploadEvidenceFile(db, businessId, input.dispute, {
        data: Buffer.from(await file.arrayBuffer()),
        name: file.name || field,
        type: file.type,
      }).catch((error: unknown) => {
        // The upload's rule names the form's field, not the API's `file`.
        if (error instanceof ValidationError && error.fields.file)
          throw ValidationError.field(field, `${fileEvidenceLabels[field]} ${error.fields.file[0]!}`);
        throw error;
      });
    }
    if (Object.keys(evidence).length === 0 && !input.submit)
      throw ValidationError.field("evidence", "Fill in at least one field to save");
    const request = EvidenceRequestSchema.parse({ evidence, submit: input.submit });
    const dispute = await submitDisputeEvidence(db, businessId, input.dispute, request);
    return {
      message: input.submit
        ? `Evidence submitted to the card issuer: the dispute is ${dispute.status.replaceAll("_", " ")}. The issuer decides; you are told the outcome (dispute_closed).`
        : "Evidence saved at Stripe (not sent yet): you can change it and submit it before the due date.",
    };
  },
});

const accept = staffAction({
  permission: "refund",
  schema: z.object({ dispute: disputeId }),
  run: async ({ db, businessId, input }) => {
    await acceptDispute(db, businessId, input.dispute);
    return { message: "Dispute accepted: it is closed as lost; the disputed amount and the fee stay withdrawn." };
  },
});

/** The dispute page's writes, each one staffAction with the disputes API's services and rules. */
export const disputeOperations = { submit_evidence: submitEvidence, accept };
