import type Stripe from "stripe";
import type { DisputeSpec } from "../cards";
import { emit, snapshot } from "../events";
import { newObjectId } from "../ids";
import { createBalanceTransaction } from "../payments/balance-transactions";
import { type Ctx, idOf, timeForCustomer } from "../state";

/** Stripe's US dispute fee, withdrawn with the disputed amount (and returned when the dispute is won). */
export const disputeFee = 1500;

/** Days the merchant has to respond; Stripe's due date is the end of that day (UTC). */
const responseDays = 7;

const endOfDay = (at: number) => at - (at % 86_400) + 86_399;

export const evidenceFields = [
  "access_activity_log",
  "billing_address",
  "cancellation_policy",
  "cancellation_policy_disclosure",
  "cancellation_rebuttal",
  "customer_communication",
  "customer_email_address",
  "customer_name",
  "customer_purchase_ip",
  "customer_signature",
  "duplicate_charge_documentation",
  "duplicate_charge_explanation",
  "duplicate_charge_id",
  "product_description",
  "receipt",
  "refund_policy",
  "refund_policy_disclosure",
  "refund_refusal_explanation",
  "service_date",
  "service_documentation",
  "shipping_address",
  "shipping_carrier",
  "shipping_date",
  "shipping_documentation",
  "shipping_tracking_number",
  "uncategorized_file",
  "uncategorized_text",
] as const;

/** Evidence fields that hold a File id (purpose `dispute_evidence`), not text. */
export const fileEvidenceFields = new Set<string>([
  "cancellation_policy",
  "customer_communication",
  "customer_signature",
  "duplicate_charge_documentation",
  "receipt",
  "refund_policy",
  "service_documentation",
  "shipping_documentation",
  "uncategorized_file",
]);

export const disputeTime = (ctx: Ctx, dispute: Stripe.Dispute) => {
  const charge = ctx.account.store.get("charge", idOf(dispute.charge as string) ?? "");
  return timeForCustomer(ctx, idOf((charge?.customer ?? null) as string | null));
};

/**
 * The cardholder disputes a succeeded charge (a dispute test card, or the emulator's helper): the
 * dispute opens, and unless it is an inquiry, the amount and the fee are withdrawn at once.
 */
export function openDispute(ctx: Ctx, charge: Stripe.Charge, spec: DisputeSpec): Stripe.Dispute {
  const created = timeForCustomer(ctx, idOf(charge.customer as string | null));
  const evidence = Object.fromEntries(evidenceFields.map((field) => [field, null]));
  const dispute: Stripe.Dispute = {
    id: newObjectId("dp"),
    object: "dispute",
    amount: charge.amount_captured - charge.amount_refunded,
    balance_transactions: [],
    charge: charge.id,
    created,
    currency: charge.currency,
    enhanced_eligibility_types: spec.enhancedEligibility ? [spec.enhancedEligibility] : [],
    evidence: { ...evidence, enhanced_evidence: {} } as unknown as Stripe.Dispute.Evidence,
    evidence_details: {
      due_by: endOfDay(created + responseDays * 86_400),
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: "not_submitted",
    },
    intended_submission_method: null,
    is_charge_refundable: spec.inquiry,
    livemode: false,
    metadata: {},
    payment_intent: idOf(charge.payment_intent as string | null),
    payment_method_details: {
      card: {
        brand: charge.payment_method_details?.card?.brand ?? "visa",
        case_type: spec.inquiry ? "inquiry" : "chargeback",
        network: charge.payment_method_details?.card?.network ?? "visa",
        network_reason_code: spec.networkReasonCode,
      },
      type: "card",
    },
    reason: spec.reason,
    status: spec.inquiry ? "warning_needs_response" : "needs_response",
  };
  ctx.account.store.insert("dispute", dispute);
  const before = snapshot(charge);
  charge.disputed = true;
  emit(ctx, "charge.dispute.created", dispute, { created });
  emit(ctx, "charge.updated", charge, { created, before });
  if (!spec.inquiry) withdrawFunds(ctx, dispute, created);
  return dispute;
}

/** The disputed amount and the dispute fee leave the balance (one `adjustment`, category `dispute`). */
export function withdrawFunds(ctx: Ctx, dispute: Stripe.Dispute, created: number): void {
  const transaction = createBalanceTransaction(ctx, {
    amount: -dispute.amount,
    fee: disputeFee,
    currency: dispute.currency,
    source: dispute.id,
    type: "adjustment",
    category: "dispute",
    created,
    description: `Chargeback withdrawal for ${idOf(dispute.charge as string)}`,
    feeDescription: "Dispute fee",
  });
  dispute.balance_transactions.push(transaction);
  emit(ctx, "charge.dispute.funds_withdrawn", dispute, { created });
}

/**
 * A won dispute: Stripe credits back the amount and the dispute fee ("your account is credited
 * the amount of the charge and related fees"): one `adjustment`, category `dispute_reversal`.
 */
export function reinstateFunds(ctx: Ctx, dispute: Stripe.Dispute, created: number): void {
  const transaction = createBalanceTransaction(ctx, {
    amount: dispute.amount,
    fee: -disputeFee,
    currency: dispute.currency,
    source: dispute.id,
    type: "adjustment",
    category: "dispute_reversal",
    created,
    description: `Chargeback reversal for ${idOf(dispute.charge as string)}`,
    feeDescription: "Dispute fee refund",
  });
  dispute.balance_transactions.push(transaction);
  emit(ctx, "charge.dispute.funds_reinstated", dispute, { created });
}
