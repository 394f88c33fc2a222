import { acceptDispute, submitDisputeEvidence } from "@/lib/disputes/answer-dispute";
import { EvidenceRequestSchema } from "@/lib/disputes/dispute-schemas";
import { disputeView } from "@/lib/disputes/dispute-view";
import { findDispute } from "@/lib/disputes/get-dispute";
import { listDisputes, parseDisputeListQuery } from "@/lib/disputes/list-disputes";
import { readJsonObject } from "@/lib/http/body";
import { apiHandler } from "@/lib/api/handler";
import { json } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/http/validation";

// GET /disputes
export const getDisputes = apiHandler({
  auth: "secret",
  handle: async ({ request, db, caller }) =>
    json(
      200,
      await listDisputes(db, caller.business.id, parseDisputeListQuery(new URL(request.url).searchParams)),
    ),
});

// GET /disputes/{dispute_id}
export const getDisputeHandler = apiHandler({
  auth: "secret",
  handle: async ({ params, db, caller }) =>
    json(200, disputeView(await findDispute(db, caller.business.id, params.dispute_id ?? ""))),
});

// POST /disputes/{dispute_id}/evidence (a provider call between two transactions: steps)
export const postDisputeEvidence = apiHandler({
  auth: "secret",
  idempotent: "steps",
  handle: async ({ request, params, caller }) => {
    const body = await readJsonObject(request);
    const input = parseOrThrow(EvidenceRequestSchema, body);
    return {
      body,
      run: async (db) => {
        const dispute = await submitDisputeEvidence(db, caller.business.id, params.dispute_id ?? "", input);
        return { status: 200, body: disputeView(dispute) };
      },
    };
  },
});

// POST /disputes/{dispute_id}/accept
export const postDisputeAccept = apiHandler({
  auth: "secret",
  idempotent: "steps",
  handle: async ({ request, params, caller }) => {
    const body = await readJsonObject(request, { allowEmpty: true });
    return {
      body,
      run: async (db) => {
        const dispute = await acceptDispute(db, caller.business.id, params.dispute_id ?? "");
        return { status: 200, body: disputeView(dispute) };
      },
    };
  },
});
