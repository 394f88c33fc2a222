import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import {
  DisputeListSchema,
  DisputeSchema,
  disputeListQuerySchema,
  EvidenceRequestSchema,
} from "@/lib/disputes/dispute-schemas";
import {
  ErrorMessageSchema,
  errorResponses,
  idempotencyKeyHeaders,
  idempotentReplayHeaders,
  jsonBody,
  jsonResponse,
  security,
} from "../common";

const disputeIdParams = z.object({
  dispute_id: z.string().meta({ description: "Prefix `dsp_`.", example: "dsp_01JD8Y3X7Q2W5E9R4T6Y8U0I2O" }),
});
const notFound = jsonResponse("`dispute_not_found`: unknown, or another business's.", ErrorMessageSchema);
/** 409: the usual error body; `dispute_not_answerable` also carries the dispute as it now is. */
const DisputeConflictSchema = z
  .strictObject({
    error: z.string().meta({
      description: "`dispute_not_answerable`, `idempotency_key_reused` or `idempotency_key_in_use`.",
    }),
    message: z.string().meta({ description: "Human-readable explanation." }),
    dispute: DisputeSchema.optional().meta({
      description:
        "With `dispute_not_answerable`: the dispute as it now is (e.g. `lost` after another request accepted it).",
    }),
  })
  .meta({ id: "DisputeConflict" });

const answerFailures = {
  409: jsonResponse(
    "`dispute_not_answerable`: evidence was already submitted or the dispute ended (also the answer to the losing one of two answers sent at once), with `dispute` as it now is; or `idempotency_key_reused`, `idempotency_key_in_use`.",
    DisputeConflictSchema,
  ),
  502: jsonResponse("`provider_error`: the provider refused.", ErrorMessageSchema),
  503: jsonResponse(
    "`provider_unavailable`: the provider is unreachable; safe to retry.",
    ErrorMessageSchema,
  ),
};

/** Disputes (chargebacks and inquiries) of card payments (secret key only). */
export function registerDisputes(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: "get",
    path: "/disputes",
    tags: ["Disputes"],
    operationId: "listDisputes",
    summary: "List disputes",
    description:
      "Oldest first, `limit` per page (1 to 100, default 10) after the `starting_after` id, as GET /subscriptions. Filters: `session_id` (the disputed payment), `status`.",
    security: security.secret,
    request: { query: disputeListQuerySchema.meta({ description: "Filters and paging of GET /disputes." }) },
    responses: {
      200: jsonResponse("A page of disputes.", DisputeListSchema),
      400: errorResponses.invalidFields,
      401: errorResponses.unauthorized,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/disputes/{dispute_id}",
    tags: ["Disputes"],
    operationId: "getDispute",
    summary: "Get a dispute",
    description:
      "One dispute of the business: the disputed payment, amount, reason, status, evidence due date and what was sent.",
    security: security.secret,
    request: { params: disputeIdParams },
    responses: {
      200: jsonResponse("The Dispute object.", DisputeSchema),
      401: errorResponses.unauthorized,
      404: notFound,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/disputes/{dispute_id}/evidence",
    tags: ["Disputes"],
    operationId: "submitDisputeEvidence",
    summary: "Stage or submit evidence",
    description:
      "Stripe's evidence field names. Without `submit` (or false) the evidence is staged and can be changed; with `submit: true` it goes to the card issuer and the dispute is `under_review`. Only while the dispute needs a response.",
    security: security.secret,
    request: {
      params: disputeIdParams,
      headers: idempotencyKeyHeaders,
      body: jsonBody(EvidenceRequestSchema),
    },
    responses: {
      200: { ...jsonResponse("The updated Dispute.", DisputeSchema), headers: idempotentReplayHeaders },
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      404: notFound,
      ...answerFailures,
    },
  });

  registry.registerPath({
    method: "post",
    path: "/disputes/{dispute_id}/accept",
    tags: ["Disputes"],
    operationId: "acceptDispute",
    summary: "Accept a dispute (it is lost)",
    description:
      "The business does not contest: the dispute ends `lost` (an inquiry: `warning_closed`) and nothing comes back. Only while it needs a response.",
    security: security.secret,
    request: { params: disputeIdParams, headers: idempotencyKeyHeaders },
    responses: {
      200: { ...jsonResponse("The closed Dispute.", DisputeSchema), headers: idempotentReplayHeaders },
      400: errorResponses.badRequest,
      401: errorResponses.unauthorized,
      404: notFound,
      ...answerFailures,
    },
  });
}
