import type Stripe from "stripe";
import { listing, retrieving } from "../accepted-params";
import { evidenceFields, fileEvidenceFields, disputeTime } from "../disputes/open-dispute";
import { closeDispute, requireOpen, submitEvidence } from "../disputes/settle-dispute";
import { invalidRequest } from "../errors";
import { emit, snapshot } from "../events";
import type { Params } from "../form";
import { paginate } from "../list";
import { requireObject } from "../lookup";
import type { Route } from "../router";
import type { Ctx } from "../state";

/** Stripe's limit on the combined length of the evidence text fields. */
const maxEvidenceCharacters = 150_000;

/** Applies `evidence[...]` to the dispute: text as given, file fields checked to be uploaded files. */
function applyEvidence(ctx: Ctx, dispute: Stripe.Dispute, evidence: Params): void {
  // Checked on a copy, kept only when all of it holds: a refused request changes nothing.
  const target = { ...(dispute.evidence as unknown as Record<string, string | null>) };
  for (const field of evidenceFields) {
    const value = evidence.nullableString(field);
    if (value === undefined) continue;
    if (value !== null && fileEvidenceFields.has(field)) {
      const file = ctx.account.store.get("file", value);
      if (!file) {
        throw invalidRequest(`No such file upload: '${value}'`, {
          param: evidence.name(field),
          code: "resource_missing",
        });
      }
    }
    target[field] = value;
  }
  const total = evidenceFields
    .filter((field) => !fileEvidenceFields.has(field))
    .reduce((sum, field) => sum + (target[field]?.length ?? 0), 0);
  if (total > maxEvidenceCharacters) {
    throw invalidRequest(
      `The combined length of the evidence text fields may not exceed ${maxEvidenceCharacters} characters.`,
      { param: "evidence" },
    );
  }
  dispute.evidence = target as unknown as Stripe.Dispute.Evidence;
  dispute.evidence_details.has_evidence = evidenceFields.some((field) => target[field] !== null);
}

function updateDispute(ctx: Ctx, params: Params, id: string): Stripe.Dispute {
  const dispute = requireObject(ctx, "dispute", id);
  requireOpen(dispute);
  const before = snapshot(dispute);
  const evidence = params.object("evidence");
  const metadata = params.metadata("metadata", dispute.metadata);
  const submit = params.bool("submit") ?? true;
  // Refused before anything changes: a refused request leaves the dispute as it was.
  if (submit && !dispute.status.endsWith("needs_response")) {
    throw invalidRequest(
      `This dispute is under review; evidence was already submitted (dispute ${dispute.id}).`,
      { param: "submit" },
    );
  }
  if (evidence) applyEvidence(ctx, dispute, evidence);
  if (metadata) dispute.metadata = metadata;
  if (submit) submitEvidence(ctx, dispute);
  emit(ctx, "charge.dispute.updated", dispute, { created: disputeTime(ctx, dispute), before });
  return dispute;
}

export const disputeRoutes: Route[] = [
  // GET /v1/disputes/:id
  {
    method: "GET",
    path: "/v1/disputes/:id",
    stripeParams: "DisputeRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => requireObject(ctx, "dispute", path.id),
  },
  // POST /v1/disputes/:id
  {
    method: "POST",
    path: "/v1/disputes/:id",
    stripeParams: "DisputeUpdateParams",
    accepts: ["expand", "metadata", "submit", ...evidenceFields.map((field) => `evidence[${field}]`)],
    handler: ({ ctx, params, path }) => updateDispute(ctx, params, path.id),
  },
  // POST /v1/disputes/:id/close
  {
    method: "POST",
    path: "/v1/disputes/:id/close",
    stripeParams: "DisputeCloseParams",
    accepts: ["expand"],
    handler: ({ ctx, path }) => closeDispute(ctx, requireObject(ctx, "dispute", path.id)),
  },
  // GET /v1/disputes
  {
    method: "GET",
    path: "/v1/disputes",
    stripeParams: "DisputeListParams",
    accepts: listing("charge", "payment_intent"),
    handler: ({ ctx, params }) => {
      const charge = params.string("charge");
      const intent = params.string("payment_intent");
      const all = ctx.account.store
        .all("dispute")
        .filter(
          (dispute) =>
            (charge ? dispute.charge === charge : true) &&
            (intent ? dispute.payment_intent === intent : true),
        );
      return paginate(all, params, "/v1/disputes");
    },
  },
  // GET /v1/radar/early_fraud_warnings/:id
  {
    method: "GET",
    path: "/v1/radar/early_fraud_warnings/:id",
    stripeParams: "Radar.EarlyFraudWarningRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => requireObject(ctx, "radar.early_fraud_warning", path.id),
  },
  // GET /v1/radar/early_fraud_warnings
  {
    method: "GET",
    path: "/v1/radar/early_fraud_warnings",
    stripeParams: "Radar.EarlyFraudWarningListParams",
    accepts: listing("charge", "payment_intent"),
    handler: ({ ctx, params }) => {
      const charge = params.string("charge");
      const intent = params.string("payment_intent");
      const all = ctx.account.store
        .all("radar.early_fraud_warning")
        .filter(
          (warning) =>
            (charge ? warning.charge === charge : true) &&
            (intent ? warning.payment_intent === intent : true),
        );
      return paginate(all, params, "/v1/radar/early_fraud_warnings");
    },
  },
];
