import { readJsonObject } from "@/lib/http/body";
import { apiHandler } from "@/lib/api/handler";
import { json } from "@/lib/http/respond";
import { parseOrThrow } from "@/lib/http/validation";
import { getPayment } from "@/lib/payments/get-payment";
import { refundInputSchema, reviewInputSchema } from "@/lib/payments/operation-input";
import {
  completeRefund,
  listRefunds,
  prepareMerchantRefund,
  readRefund,
  reserveMerchantRefund,
  type RefundView,
} from "@/lib/payments/refund-payment";
import { acceptReviewedPayment, completeReviewDecline, reserveReviewDecline } from "@/lib/payments/review-payment";
import { pageSchema } from "@/lib/payouts/payout-input";

// The merchant operations on a payment (decision 0015): secret key, Idempotency-Key honoured.

// POST /payments/{session_id}/refund
export const postPaymentRefund = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, params, db, caller }) => {
    const body = await readJsonObject(request, { allowEmpty: true });
    const input = parseOrThrow(refundInputSchema, body);
    const sessionId = params.session_id ?? "";
    // Provider reads first, outside the key's transaction (a provider outage is then not stored
    // under the key as the answer: the retry tries again).
    const prepared = await prepareMerchantRefund(db, caller.business.id, sessionId);
    return {
      body,
      // Reserved inside the key's transaction; executed at the provider after commit.
      run: async (tx) => {
        const refund = await reserveMerchantRefund(
          tx,
          caller.business.id,
          sessionId,
          { amount: input.amount, note: input.reason },
          prepared,
        );
        return { status: 201, body: await readRefund(tx, refund.id) };
      },
      // First answer and replays alike: the refund as it is now, executed if still pending.
      after: async (stored) => {
        if (stored.status !== 201) return stored;
        const { id } = stored.body as RefundView;
        return { status: 201, body: await completeRefund(db, id) };
      },
    };
  },
});

// GET /payments/{session_id}/refunds
export const getPaymentRefunds = apiHandler({
  auth: "secret",
  handle: async ({ request, params, db, caller }) => {
    const query = new URL(request.url).searchParams;
    const page = parseOrThrow(pageSchema, {
      limit: query.get("limit") || undefined,
      starting_after: query.get("starting_after") || undefined,
    });
    return json(200, await listRefunds(db, caller.business.id, params.session_id ?? "", page));
  },
});

// POST /payments/{session_id}/review
export const postPaymentReview = apiHandler({
  auth: "secret",
  idempotent: "transaction",
  handle: async ({ request, params, db, caller }) => {
    const body = await readJsonObject(request);
    const { decision } = parseOrThrow(reviewInputSchema, body);
    const sessionId = params.session_id ?? "";
    return {
      body,
      run: async (tx) => {
        if (decision === "accept")
          return { status: 200, body: await acceptReviewedPayment(tx, caller.business.id, sessionId) };
        await reserveReviewDecline(tx, caller.business.id, sessionId);
        return { status: 200, body: await getPayment(tx, caller.business, sessionId) };
      },
      // A decline's refund goes to the provider after commit; the answer is the payment as it is now.
      after: async (stored) => {
        if (stored.status !== 200) return stored;
        return { status: 200, body: await completeReviewDecline(db, caller.business, sessionId) };
      },
    };
  },
});
