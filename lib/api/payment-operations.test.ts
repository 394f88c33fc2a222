import { describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { installDatabase } from "@/lib/db";
import { updateFraudSettings } from "@/lib/fraud/fraud-settings";
import { transferToPayoutBalance } from "@/lib/ledger/transfer-to-payout-balance";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { sandboxStripeKey } from "@/lib/providers/stripe/sandbox-emulator";
import type { PaymentView } from "@/lib/payments/get-payment";
import type { RefundView } from "@/lib/payments/refund-payment";
import {
  balanceOf,
  eventBodies,
  eventTypes,
  helperPay,
  newSession,
  paymentRow,
  paymentsBusiness,
  readPayment,
  refundsOf,
  withSandboxProviders,
} from "@/lib/payments/testing/payment-fixtures";
import { sdkFor } from "@kassa/stripe-emulator/testing";
import { api, testDb, testHandle } from "@/test/helpers";

// POST /payments/{session_id}/refund, GET /payments/{session_id}/refunds and
// POST /payments/{session_id}/review through the router, the emulator and the real database.

const providers = withSandboxProviders();
verifyLedgerAfterEach();

type Biz = Awaited<ReturnType<typeof paymentsBusiness>>;
type RefundBody = RefundView & { error?: string; message?: string };

const refund = (biz: Biz, sessionId: string, body?: unknown, headers?: Record<string, string>) =>
  api<RefundBody>("POST", `/payments/${sessionId}/refund`, { key: biz.secretKey, body, headers });
const refunds = (biz: Biz, sessionId: string, query = "") =>
  api<{ data: RefundView[]; has_more: boolean } & { error?: string }>(
    "GET",
    `/payments/${sessionId}/refunds${query}`,
    { key: biz.secretKey },
  );
const review = (biz: Biz, sessionId: string, body?: unknown, headers?: Record<string, string>) =>
  api<PaymentView & { error?: string; message?: string }>("POST", `/payments/${sessionId}/review`, {
    key: biz.secretKey,
    body,
    headers,
  });

async function paidSession(biz: Biz, card = "4242424242424242") {
  const { session_id } = await newSession(biz);
  const paid = await helperPay(biz, session_id, { card_number: card });
  expect(paid.body.status).toBe("succeeded");
  return session_id;
}

async function heldSession(biz: Biz) {
  const { session_id } = await newSession(biz);
  const held = await helperPay(biz, session_id, { card_number: "4000000000009235" });
  expect(held.body.status).toBe("pending_review");
  return session_id;
}

const refundPayloads = async (sessionId: string) =>
  (await eventBodies(sessionId)).filter((b) => b.type === "refunded" || b.type === "refunded_again");

describe("POST /payments/{session_id}/refund", () => {
  it("refunds in full by default: 201 with the Refund object, the `refunded` webhook carries it", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidSession(biz);
    expect(await balanceOf(biz)).toBe(2397);

    const res = await refund(biz, sessionId);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^rfd_/),
      session_id: sessionId,
      amount: 2500,
      currency: "USD",
      status: "succeeded",
      reason: "requested_by_merchant",
      note: null,
      balance_debit: 2397,
      amount_refunded: 2500,
      failure_message: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      completed_at: expect.stringMatching(/Z$/),
    });
    expect(await balanceOf(biz)).toBe(0);
    // The payment still reads succeeded (the interface has no refunded status).
    expect(await readPayment(biz, sessionId)).toMatchObject({ status: "succeeded", net_amount: 2397 });
    expect(await eventTypes(sessionId)).toEqual(["succeeded", "refunded"]);
    const [payload] = await refundPayloads(sessionId);
    expect(payload).toMatchObject({
      type: "refunded",
      amount: 2500,
      order_id: expect.any(String),
      refund: { id: res.body.id, amount: 2500, amount_refunded: 2500 },
    });
    // At the provider: one refund of the whole PaymentIntent.
    const payment = (await paymentRow(sessionId))!;
    const atStripe = await sdkFor(
      providers.current().emulator,
      sandboxStripeKey(biz.business.id),
    ).refunds.list({
      payment_intent: payment.providerPaymentId!,
    });
    expect(atStripe.data.map((r) => [r.amount, r.metadata?.kassa_refund_id])).toEqual([[2500, res.body.id]]);
  });

  it("refunds in part until nothing is left; each `refunded` webhook names its refund and the total", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidSession(biz);

    const first = await refund(biz, sessionId, { amount: 1000, reason: "one shirt returned" });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      amount: 1000,
      balance_debit: 958,
      amount_refunded: 1000,
      status: "succeeded",
      reason: "requested_by_merchant",
      note: "one shirt returned",
    });

    const over = await refund(biz, sessionId, { amount: 1501 });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({
      error: "amount_exceeds_refundable",
      message: expect.stringContaining("1500"),
    });

    const second = await refund(biz, sessionId, { amount: 500, reason: "  late delivery, goodwill  " });
    expect(second.body).toMatchObject({
      amount: 500,
      amount_refunded: 1500,
      status: "succeeded",
      note: "late delivery, goodwill",
    });
    const rest = await refund(biz, sessionId, {});
    expect(rest.status).toBe(201);
    expect(rest.body).toMatchObject({ amount: 1000, amount_refunded: 2500, balance_debit: 2397 - 958 - 480 });
    expect(await balanceOf(biz)).toBe(0);

    const exhausted = await refund(biz, sessionId, { amount: 1 });
    expect(exhausted.status).toBe(409);
    expect(exhausted.body).toEqual({ error: "payment_fully_refunded", message: expect.any(String) });
    expect((await refund(biz, sessionId)).status).toBe(409);

    // Three webhooks with the same order_id and type, told apart by refund.id.
    const payloads = await refundPayloads(sessionId);
    expect(payloads.map((p) => p.refund)).toEqual([
      { id: first.body.id, amount: 1000, amount_refunded: 1000 },
      { id: second.body.id, amount: 500, amount_refunded: 1500 },
      { id: rest.body.id, amount: 1000, amount_refunded: 2500 },
    ]);
    expect(new Set(payloads.map((p) => p.order_id)).size).toBe(1);

    // The list: newest first, paged.
    const all = await refunds(biz, sessionId);
    expect(all.status).toBe(200);
    expect(all.body.data.map((r) => r.id)).toEqual([rest.body.id, second.body.id, first.body.id]);
    expect(all.body.data.every((r) => r.amount_refunded === 2500)).toBe(true);
    // Each note is kept with its refund, and went to Stripe as metadata.
    expect(all.body.data.map((r) => [r.reason, r.note])).toEqual([
      ["requested_by_merchant", null],
      ["requested_by_merchant", "late delivery, goodwill"],
      ["requested_by_merchant", "one shirt returned"],
    ]);
    const atStripe = await sdkFor(
      providers.current().emulator,
      sandboxStripeKey(biz.business.id),
    ).refunds.list({
      payment_intent: (await paymentRow(sessionId))!.providerPaymentId!,
    });
    expect(
      Object.fromEntries(
        atStripe.data.map((r) => [r.metadata?.kassa_refund_id, r.metadata?.kassa_reason ?? null]),
      ),
    ).toEqual({
      [first.body.id]: "one shirt returned",
      [second.body.id]: "late delivery, goodwill",
      [rest.body.id]: null,
    });
    expect(all.body.has_more).toBe(false);
    const page1 = await refunds(biz, sessionId, "?limit=2");
    expect(page1.body.data.map((r) => r.id)).toEqual([rest.body.id, second.body.id]);
    expect(page1.body.has_more).toBe(true);
    const page2 = await refunds(biz, sessionId, `?limit=2&starting_after=${second.body.id}`);
    expect(page2.body).toEqual({ data: [expect.objectContaining({ id: first.body.id })], has_more: false });
    expect((await refunds(biz, sessionId, "?limit=0")).body).toEqual({ limit: [expect.any(String)] });
  });

  it("answers 404 for unknown ids and another business's sessions; 401 for a public key", async () => {
    const biz = await paymentsBusiness();
    const other = await paymentsBusiness();
    const sessionId = await paidSession(biz);
    for (const id of [sessionId, "cs_unknown", "nope", "%00", "cs_" + "x".repeat(200)]) {
      const path = id === sessionId ? id : encodeURIComponent(id);
      expect(await refund(other, path, { amount: 100 })).toMatchObject({
        status: 404,
        body: { error: "Payment not found" },
      });
      expect(await refunds(other, path)).toMatchObject({ status: 404, body: { error: "Payment not found" } });
      expect(await review(other, path, { decision: "accept" })).toMatchObject({
        status: 404,
        body: { error: "Payment not found" },
      });
    }
    for (const [method, path] of [
      ["POST", `/payments/${sessionId}/refund`],
      ["GET", `/payments/${sessionId}/refunds`],
      ["POST", `/payments/${sessionId}/review`],
    ] as const) {
      expect(
        await api(method, path, { key: biz.publicKey, body: method === "POST" ? {} : undefined }),
      ).toMatchObject({ status: 401, body: { error: "Unauthorized" } });
      expect(await api(method, path, { key: null })).toMatchObject({
        status: 401,
        body: { error: "Unauthorized" },
      });
    }
    expect(await refundsOf(sessionId)).toEqual([]);
    expect(await balanceOf(biz)).toBe(2397);
  });

  it("refuses bad bodies with 400 and changes nothing", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidSession(biz);
    const bad: [unknown, Record<string, unknown>][] = [
      [{ amount: "100" }, { amount: ["amount must be an integer number of cents"] }],
      [{ amount: 0 }, { amount: [expect.stringContaining("at least 1")] }],
      [{ amount: -5 }, { amount: [expect.stringContaining("at least 1")] }],
      [{ amount: 10.5 }, { amount: ["amount must be an integer number of cents"] }],
      [{ amount: 1e300 }, { amount: ["amount must be an integer number of cents"] }],
      [{ amount: true }, { amount: ["amount must be an integer number of cents"] }],
      [{ reason: 7 }, { reason: ["reason must be a string"] }],
      [{ reason: "x".repeat(501) }, { reason: ["reason must be at most 500 characters"] }],
      [{ reason: "a\u0000b" }, { reason: [expect.stringContaining("NUL")] }],
      [
        { amount: 0, reason: [] },
        { amount: [expect.any(String)], reason: [expect.any(String)] },
      ],
    ];
    for (const [body, fields] of bad) {
      const res = await refund(biz, sessionId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(fields);
    }
    for (const rawBody of ["{", "[1]", "42", '"x"', "null"]) {
      const res = await api("POST", `/payments/${sessionId}/refund`, { key: biz.secretKey, rawBody });
      expect(res.status, rawBody).toBe(400);
      expect(res.body).toMatchObject({ error: "invalid_json", message: expect.any(String) });
    }
    // Over what is left, with nothing refunded yet: a clear 400 too.
    expect((await refund(biz, sessionId, { amount: 2501 })).body).toMatchObject({
      error: "amount_exceeds_refundable",
    });
    expect(await refundsOf(sessionId)).toEqual([]);
    expect(await balanceOf(biz)).toBe(2397);
    // Null fields read as absent; unknown fields are ignored.
    const ok = await refund(biz, sessionId, { amount: null, reason: null, extra: { x: 1 } });
    expect(ok).toMatchObject({ status: 201, body: { amount: 2500 } });
  });

  it("never answers a 500, whatever the body or id", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidSession(biz);
    const held = await heldSession(biz);
    const values: unknown[] = [
      null,
      true,
      -0,
      0.1,
      -1,
      2 ** 53,
      Number.MAX_VALUE,
      "",
      " ",
      "1e3",
      "\ud800",
      "\u0000",
      "x".repeat(100_000),
      [],
      [1],
      {},
      { a: { b: [null] } },
      "accept ",
      "ACCEPT",
      "decline\u0000",
    ];
    for (const value of values) {
      for (const body of [{ amount: value }, { reason: value }, { amount: value, reason: value }]) {
        const res = await refund(biz, sessionId, body);
        expect([201, 400, 409], JSON.stringify(body).slice(0, 80)).toContain(res.status);
      }
      const reviewed = await review(biz, held, { decision: value });
      expect(reviewed.status, JSON.stringify(value).slice(0, 80)).toBe(400);
    }
    for (const id of ["%FF", "%E0%80%AF", "cs_%2F..", "cs_" + "0".repeat(64), "CS_X", "%ED%A0%80"]) {
      expect((await api("POST", `/payments/${id}/refund`, { key: biz.secretKey })).status).toBe(404);
      expect((await api("GET", `/payments/${id}/refunds`, { key: biz.secretKey })).status).toBe(404);
    }
    expect((await paymentRow(held))!.status).toBe("pending_review");
  });

  it("refunds only succeeded payments: 409 otherwise", async () => {
    const biz = await paymentsBusiness();
    const unpaid = await newSession(biz);
    const failed = await newSession(biz);
    await helperPay(biz, failed.session_id, { card_number: "4000000000000002" });
    const held = await heldSession(biz);
    for (const id of [unpaid.session_id, failed.session_id, held]) {
      const res = await refund(biz, id);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: "payment_not_refundable", message: expect.any(String) });
    }
    expect((await refund(biz, held)).body.message).toContain("review");
    // An unpaid session has no refunds (an empty list, not a 404).
    expect((await refunds(biz, unpaid.session_id)).body).toEqual({ data: [], has_more: false });
  });

  it("a declined or pending payment is not refundable either (409); a 500-character note is kept, trimmed", async () => {
    const biz = await paymentsBusiness();
    const declined = await heldSession(biz);
    expect((await review(biz, declined, { decision: "decline" })).body.status).toBe("declined");
    const pending = (await newSession(biz, { paymentMethodId: "sandbox_bitcoin" })).session_id;
    expect((await readPayment(biz, pending)).status).toBe("pending");
    for (const id of [declined, pending]) {
      const res = await refund(biz, id);
      expect(res.status, id).toBe(409);
      expect(res.body).toEqual({ error: "payment_not_refundable", message: expect.any(String) });
    }
    // The declined payment keeps only its review refund.
    expect((await refundsOf(declined)).map((r) => r.reason)).toEqual(["review_declined"]);
    expect(await refundsOf(pending)).toEqual([]);

    const paid = await paidSession(biz);
    const note = "n".repeat(500);
    const ok = await refund(biz, paid, { amount: 100, reason: note });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ amount: 100, note, reason: "requested_by_merchant" });
    expect((await refund(biz, paid, { amount: 100, reason: "  Returned  " })).body).toMatchObject({ note: "Returned" });
  });

  it("answers the business's balance shortfall with 400 insufficient_balance and refunds nothing", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidSession(biz);
    await transferToPayoutBalance(testDb(), biz.business.id, 2000);
    const res = await refund(biz, sessionId);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "insufficient_balance", message: expect.stringContaining("2397") });
    expect(await refundsOf(sessionId)).toEqual([]);
  });

  it("a refund the provider refuses is answered `failed` with its reason; the balance is restored", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidSession(biz);
    const payment = (await paymentRow(sessionId))!;
    // Refunded at Stripe behind Kassa's back (its charge.refunded not processed yet): 500 left there.
    const stripe = sdkFor(providers.current().emulator, sandboxStripeKey(biz.business.id));
    await stripe.refunds.create({ payment_intent: payment.providerPaymentId!, amount: 2000 });
    const res = await refund(biz, sessionId, { amount: 1000 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: "failed",
      amount: 1000,
      amount_refunded: 0,
      failure_message: expect.any(String),
      completed_at: expect.any(String),
    });
    expect(await balanceOf(biz)).toBe(2397);
    expect((await paymentRow(sessionId))!.refundedAmount).toBe(0);
    expect(await refundPayloads(sessionId)).toEqual([]);
    expect((await refunds(biz, sessionId)).body.data.map((r) => r.status)).toEqual(["failed"]);
  });

  it("a refund Stripe cannot be reached for stays `pending`; the retry with its key completes it", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidSession(biz);
    const emulator = providers.current().emulator;
    const headers = { "idempotency-key": "while-down" };
    emulator.setUnreachable(true, sandboxStripeKey(biz.business.id));
    let first;
    try {
      first = await refund(biz, sessionId, { amount: 1200 }, headers);
    } finally {
      emulator.setUnreachable(false, sandboxStripeKey(biz.business.id));
    }
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      status: "pending",
      amount: 1200,
      amount_refunded: 1200,
      completed_at: null,
    });
    // Reserved: the debit is taken and counts against what is left.
    expect(await balanceOf(biz)).toBe(2397 - first.body.balance_debit);
    expect((await refund(biz, sessionId, { amount: 1301 })).body).toMatchObject({
      error: "amount_exceeds_refundable",
    });
    expect(await refundPayloads(sessionId)).toEqual([]);

    const retried = await refund(biz, sessionId, { amount: 1200 }, headers);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(retried.body).toMatchObject({ id: first.body.id, status: "succeeded", amount_refunded: 1200 });
    expect((await refundPayloads(sessionId)).map((p) => p.refund)).toEqual([
      { id: first.body.id, amount: 1200, amount_refunded: 1200 },
    ]);
  }, 60_000);

  it("honours Idempotency-Key: a retry replays the same refund, another body is a 409", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await paidSession(biz);
    const headers = { "idempotency-key": "refund-order-1" };
    const first = await refund(biz, sessionId, { amount: 700 }, headers);
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await refund(biz, sessionId, { amount: 700 }, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    const conflicting = await refund(biz, sessionId, { amount: 800 }, headers);
    expect(conflicting.status).toBe(409);
    expect(conflicting.body).toEqual({ error: "idempotency_key_reused", message: expect.any(String) });
    expect((await refundsOf(sessionId)).map((r) => r.amount)).toEqual([700]);
    expect(await refundPayloads(sessionId)).toHaveLength(1);

    // A refused request is remembered too: the replay answers the same 400 without refunding.
    const tooMuch = await refund(biz, sessionId, { amount: 5000 }, { "idempotency-key": "too-much" });
    expect(tooMuch.status).toBe(400);
    const tooMuchAgain = await refund(biz, sessionId, { amount: 5000 }, { "idempotency-key": "too-much" });
    expect(tooMuchAgain).toMatchObject({ status: 400, body: tooMuch.body });
    expect(tooMuchAgain.headers.get("idempotent-replayed")).toBe("true");
    // Concurrent retries with one key refund once.
    const key = { "idempotency-key": "parallel" };
    const parallel = await Promise.all(
      Array.from({ length: 4 }, () => refund(biz, sessionId, { amount: 100 }, key)),
    );
    expect(new Set(parallel.map((r) => r.body.id)).size).toBe(1);
    expect((await refundsOf(sessionId)).map((r) => r.amount)).toEqual([700, 100]);
    expect((await refund(biz, sessionId, {}, { "idempotency-key": "" })).status).toBe(400);
  });

  it("concurrent refunds never exceed the payment (PostgreSQL: truly parallel, two app instances)", async (ctx) => {
    const url = (testHandle() as { url?: string }).url;
    if (!url) ctx.skip();
    const biz = await paymentsBusiness();
    const sessionId = await paidSession(biz);
    const first = testHandle();
    const second = await openDatabase({ kind: "postgres", url: url!, max: 10 });
    try {
      const results = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          // Half the requests through each instance's pool.
          installDatabase(i % 2 ? second : first);
          return refund(biz, sessionId, { amount: 300 });
        }),
      );
      installDatabase(first);
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(8);
      expect(statuses.every((s) => s === 201 || s === 400 || s === 409)).toBe(true);
      expect((await paymentRow(sessionId))!.refundedAmount).toBe(2400);
      const rows = await refundsOf(sessionId);
      expect(rows.reduce((sum, r) => sum + r.amount, 0)).toBe(2400);
      const totals = (await refundPayloads(sessionId)).map(
        (p) => (p.refund as { amount_refunded: number }).amount_refunded,
      );
      expect(totals.sort((a, b) => a - b)).toEqual([300, 600, 900, 1200, 1500, 1800, 2100, 2400]);
    } finally {
      installDatabase(first);
      await second.close();
    }
  }, 60_000);
});

describe("POST /payments/{session_id}/review", () => {
  it("accept credits the net and sends `succeeded`; a second review is a 409", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await heldSession(biz);
    expect(await balanceOf(biz)).toBe(0);
    const res = await review(biz, sessionId, { decision: "accept" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ session_id: sessionId, status: "succeeded", net_amount: 2397 });
    expect(await balanceOf(biz)).toBe(2397);
    expect(await eventTypes(sessionId)).toEqual(["pending_review", "succeeded"]);
    const [heldBody, succeededBody] = await eventBodies(sessionId);
    expect(succeededBody).toEqual({ ...heldBody, type: "succeeded" });
    expect(succeededBody).toMatchObject({
      amount: 2500,
      fees: 103,
      provider: "stripe",
      payment_method: "credit",
    });
    for (const decision of ["accept", "decline"]) {
      const again = await review(biz, sessionId, { decision });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        error: "payment_not_in_review",
        message: expect.stringContaining("succeeded"),
      });
    }
    // Accepted, it is an ordinary payment: refundable.
    expect((await refund(biz, sessionId)).status).toBe(201);
  });

  it("decline refunds the customer, sends `declined`, and the payment's net reads 0", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await heldSession(biz);
    const res = await review(biz, sessionId, { decision: "decline" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "declined", fees: 103, net_amount: 0 });
    expect(await readPayment(biz, sessionId)).toMatchObject({ status: "declined", net_amount: 0 });
    expect(await eventTypes(sessionId)).toEqual(["pending_review", "declined"]);
    const [heldBody, declinedBody] = await eventBodies(sessionId);
    // `declined` is the announcement; the automatic refund sends no `refunded` of its own.
    expect(declinedBody).toEqual({ ...heldBody, type: "declined" });
    expect((await refundsOf(sessionId)).map((r) => [r.reason, r.status, r.amount, r.ledgerAmount])).toEqual([
      ["review_declined", "succeeded", 2500, 0],
    ]);
    expect(await balanceOf(biz)).toBe(0);
    const listed = await refunds(biz, sessionId);
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        reason: "review_declined",
        amount: 2500,
        status: "succeeded",
        balance_debit: 0,
      }),
    ]);
    // Declined: not refundable again, not reviewable again.
    expect((await refund(biz, sessionId)).body).toMatchObject({ error: "payment_not_refundable" });
    expect((await review(biz, sessionId, { decision: "accept" })).status).toBe(409);
  });

  it("a payment declined after its charge by the risk signal reads net_amount 0", async () => {
    const biz = await paymentsBusiness();
    // The same path as Radar's `highest` risk (declined after the charge, refunded in full).
    await updateFraudSettings(testDb(), biz.business.id, { elevatedRisk: "decline" });
    const { session_id } = await newSession(biz);
    const paid = await helperPay(biz, session_id, { card_number: "4000000000009235" });
    expect(paid.body).toMatchObject({ status: "declined", net_amount: 0 });
    expect((await paymentRow(session_id))!.netAmount).toBe(2397);
    expect(await readPayment(biz, session_id)).toMatchObject({ status: "declined", net_amount: 0 });
    expect((await refundsOf(session_id)).map((r) => [r.reason, r.status])).toEqual([
      ["fraud_declined", "succeeded"],
    ]);
  });

  it("is only for held payments, and refuses bad bodies with 400", async () => {
    const biz = await paymentsBusiness();
    const paid = await paidSession(biz);
    const unpaid = await newSession(biz);
    for (const id of [paid, unpaid.session_id]) {
      const res = await review(biz, id, { decision: "accept" });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: "payment_not_in_review" });
    }
    const held = await heldSession(biz);
    for (const [body, message] of [
      [{}, "decision is required"],
      [{ decision: null }, "decision is required"],
      [{ decision: "approve" }, 'decision must be "accept" or "decline"'],
      [{ decision: 1 }, 'decision must be "accept" or "decline"'],
    ] as const) {
      const res = await review(biz, held, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ decision: [message] });
    }
    for (const rawBody of ["", "{", "[]"]) {
      const res = await api("POST", `/payments/${held}/review`, { key: biz.secretKey, rawBody });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "invalid_json" });
    }
    expect((await paymentRow(held))!.status).toBe("pending_review");
  });

  it("honours Idempotency-Key: a retried decline replays, a different decision with that key is a 409", async () => {
    const biz = await paymentsBusiness();
    const sessionId = await heldSession(biz);
    const headers = { "idempotency-key": "review-1" };
    const first = await review(biz, sessionId, { decision: "decline" }, headers);
    const again = await review(biz, sessionId, { decision: "decline" }, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect((await review(biz, sessionId, { decision: "accept" }, headers)).body).toMatchObject({
      error: "idempotency_key_reused",
    });
    expect(await refundsOf(sessionId)).toHaveLength(1);
  });

  it("concurrent accept and decline end in exactly one outcome (PostgreSQL: truly parallel)", async (ctx) => {
    if (testHandle().kind !== "postgres") ctx.skip();
    for (let round = 0; round < 3; round++) {
      const biz = await paymentsBusiness();
      const sessionId = await heldSession(biz);
      const results = await Promise.all(
        ["accept", "decline", "accept", "decline", "accept", "decline"].map((decision) =>
          review(biz, sessionId, { decision }),
        ),
      );
      const won = results.filter((r) => r.status === 200);
      expect(won).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(5);
      const outcome = won[0]!.body.status;
      const events = await eventTypes(sessionId);
      expect(events).toEqual(["pending_review", outcome === "succeeded" ? "succeeded" : "declined"]);
      if (outcome === "succeeded") {
        expect(await balanceOf(biz)).toBe(2397);
        expect(await refundsOf(sessionId)).toEqual([]);
      } else {
        expect(await balanceOf(biz)).toBe(0);
        expect((await refundsOf(sessionId)).map((r) => r.status)).toEqual(["succeeded"]);
      }
    }
  }, 60_000);
});
