import type Stripe from "stripe";
import { stripeFailure } from "./stripe-failure";

/** A dispute as Kassa reads it from Stripe (the subset it keeps and acts on). */
export type ProviderDisputeState = {
  id: string;
  paymentIntentId: string | null;
  amount: number;
  currency: string;
  reason: string;
  status: string;
  /** Unix seconds, or null. */
  dueBy: number | null;
  /** The evidence fields Stripe holds (text, and file ids), non-empty ones only. */
  evidence: Record<string, string>;
  submissionCount: number;
  /** Each balance transaction of the dispute: `net` is signed (withdrawal negative, fee included). */
  money: { id: string; net: number }[];
};

const idOf = (value: string | { id: string } | null | undefined) =>
  value == null ? null : typeof value === "string" ? value : value.id;

function stateOf(dispute: Stripe.Dispute): ProviderDisputeState {
  const evidence: Record<string, string> = {};
  for (const [field, value] of Object.entries(dispute.evidence ?? {}))
    if (typeof value === "string" && value) evidence[field] = value;
    else if (value && typeof value === "object" && "id" in value) evidence[field] = String(value.id);
  return {
    id: dispute.id,
    paymentIntentId: idOf(dispute.payment_intent),
    amount: dispute.amount,
    currency: dispute.currency,
    reason: dispute.reason,
    status: dispute.status,
    dueBy: dispute.evidence_details?.due_by ?? null,
    evidence,
    submissionCount: dispute.evidence_details?.submission_count ?? 0,
    money: (dispute.balance_transactions ?? []).map((transaction) => ({
      id: transaction.id,
      net: transaction.net,
    })),
  };
}

export async function readStripeDispute(stripe: Stripe, disputeId: string): Promise<ProviderDisputeState> {
  try {
    return stateOf(await stripe.disputes.retrieve(disputeId));
  } catch (error) {
    throw stripeFailure(error, `reading dispute ${disputeId}`);
  }
}

/** Stages evidence (Stripe's field names) and, with `submit`, sends it to the issuer. */
export async function updateStripeDispute(
  stripe: Stripe,
  disputeId: string,
  evidence: Record<string, string>,
  submit: boolean,
  idempotencyKey?: string,
): Promise<ProviderDisputeState> {
  try {
    const updated = await stripe.disputes.update(
      disputeId,
      { evidence: evidence as Stripe.DisputeUpdateParams.Evidence, submit },
      idempotencyKey ? { idempotencyKey } : undefined,
    );
    return stateOf(updated);
  } catch (error) {
    throw stripeFailure(error, `updating dispute ${disputeId}`);
  }
}

/** Accepts the dispute (Stripe's `close`): it is lost. */
export async function closeStripeDispute(stripe: Stripe, disputeId: string): Promise<ProviderDisputeState> {
  try {
    return stateOf(await stripe.disputes.close(disputeId));
  } catch (error) {
    throw stripeFailure(error, `closing dispute ${disputeId}`);
  }
}

/** Uploads one evidence file (purpose `dispute_evidence`); returns its `file_…` id. */
export async function uploadStripeEvidenceFile(
  stripe: Stripe,
  file: { data: Buffer; name: string; type: string },
): Promise<string> {
  try {
    const created = await stripe.files.create({ purpose: "dispute_evidence", file });
    return created.id;
  } catch (error) {
    throw stripeFailure(error, "uploading an evidence file");
  }
}
