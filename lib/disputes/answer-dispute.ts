import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, type Dispute } from "@/db/schema";
import { ConflictError, ValidationError } from "@/lib/errors";
import { stripeFor } from "@/lib/providers/provider-for";
import {
  closeStripeDispute,
  updateStripeDispute,
  uploadStripeEvidenceFile,
} from "@/lib/providers/stripe/stripe-disputes";
import { applyDisputeState } from "./apply-dispute-state";
import type { EvidenceRequest } from "./dispute-schemas";
import { answerableStatuses } from "./dispute-view";
import { findDispute } from "./get-dispute";

function requireAnswerable(dispute: Dispute): void {
  if (!(answerableStatuses as readonly string[]).includes(dispute.status))
    throw new ConflictError(
      "dispute_not_answerable",
      `This dispute is ${dispute.status}: evidence and acceptance are taken only while it needs a response`,
    );
}

async function stripeOf(db: Db, businessId: string) {
  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId)).limit(1);
  return stripeFor(db, business!);
}

const subjectOf = (dispute: Dispute) => ({
  businessId: dispute.businessId,
  sessionId: dispute.sessionId,
  provider: dispute.provider,
});

/**
 * POST /disputes/{id}/evidence: stages Stripe's evidence fields on the dispute at Stripe and, with
 * `submit`, sends them to the issuer (the dispute goes under review). Kassa's copy then follows
 * what Stripe answered. 409 `dispute_not_answerable` once evidence was submitted or it ended.
 */
export async function submitDisputeEvidence(
  db: Db,
  businessId: string,
  disputeId: string,
  input: EvidenceRequest,
): Promise<Dispute> {
  const dispute = await findDispute(db, businessId, disputeId);
  requireAnswerable(dispute);
  const evidence = Object.fromEntries(
    Object.entries(input.evidence).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
  const state = await updateStripeDispute(
    await stripeOf(db, businessId),
    dispute.providerDisputeId,
    evidence,
    input.submit ?? false,
  );
  return applyDisputeState(db, subjectOf(dispute), state);
}

/** POST /disputes/{id}/accept: the merchant gives up; the dispute is lost (Stripe's `close`). */
export async function acceptDispute(db: Db, businessId: string, disputeId: string): Promise<Dispute> {
  const dispute = await findDispute(db, businessId, disputeId);
  requireAnswerable(dispute);
  const state = await closeStripeDispute(await stripeOf(db, businessId), dispute.providerDisputeId);
  return applyDisputeState(db, subjectOf(dispute), state);
}

/** An evidence file for a dispute (the dashboard's upload): stored at Stripe, its `file_…` id returned. */
export async function uploadEvidenceFile(
  db: Db,
  businessId: string,
  disputeId: string,
  file: { data: Buffer; name: string; type: string },
): Promise<string> {
  const dispute = await findDispute(db, businessId, disputeId);
  requireAnswerable(dispute);
  if (!["application/pdf", "image/png", "image/jpeg", "image/gif"].includes(file.type))
    throw ValidationError.field("file", "Evidence files are PDF, PNG, JPEG or GIF");
  return uploadStripeEvidenceFile(await stripeOf(db, businessId), file);
}
