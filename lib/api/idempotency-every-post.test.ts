import { describe, expect, it } from "vitest";
import type { CreatedBusiness } from "@/lib/businesses/create-business";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { helperPay, newSession } from "@/lib/payments/testing/payment-fixtures";
import { payoutBusiness, payoutUser } from "@/lib/payouts/payout-test-helpers";
import {
  runJobs,
  signUp,
  subscriptionBusiness,
  subscriptionOfSession,
  withLoopbackApi,
  withSubscriptionProviders,
} from "@/lib/subscriptions/testing/subscription-fixtures";
import { api, sessionBody } from "@/test/helpers";
import { routes } from "./routes";

// Every POST of the route table honours Idempotency-Key (docs/api/README.md#idempotency): the
// same key and body replay the first answer, status and body; another body is 409. The provider
// callbacks are the exceptions: providers send no key, and their events are deduplicated by id.

withLoopbackApi();
withSubscriptionProviders();
verifyLedgerAfterEach();

const providerCallbacks = [
  "/payment/stripe/webhook",
  "/payment/sandbox/webhook",
  "/sandbox-provider/pay/:payment_id",
  "/sandbox-provider/3ds/:attempt_id",
];

/** One keyed request: where, as whom, its body, another valid body, and what it first answers. */
type Case = {
  path: string;
  key?: string | null;
  headers?: Record<string, string>;
  body: unknown;
  other: unknown;
  /** The first answer's status when it is not a success (a refusal is stored and replayed too). */
  refusal?: number;
};

let counter = 0;
const freshKey = () => `every-post-${Date.now()}-${++counter}`;

async function secretBiz(): Promise<CreatedBusiness> {
  return (await subscriptionBusiness()).biz;
}

async function paidSession(biz: CreatedBusiness, card = "4242424242424242") {
  const { session_id } = await newSession(biz);
  const paid = await helperPay(biz, session_id, { card_number: card });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return session_id;
}

/** A dispute opened by Stripe's 4000000000000259, once its events reached Kassa. */
async function openedDispute() {
  const biz = await secretBiz();
  const sessionId = await paidSession(biz, "4000000000000259");
  for (let i = 0; i < 200; i++) {
    await runJobs(biz.business.id);
    const listed = await api<{ data: { id: string }[] }>("GET", `/disputes?session_id=${sessionId}`, {
      key: biz.secretKey,
    });
    if (listed.body.data[0]) return { biz, id: listed.body.data[0].id };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the dispute never reached Kassa");
}

async function subscription() {
  const biz = await secretBiz();
  const { sessionId } = await signUp(biz);
  await runJobs(biz.business.id);
  return { biz, id: (await subscriptionOfSession(sessionId)).id };
}

async function withdrawal() {
  const biz = await payoutBusiness(10_000);
  const user = await payoutUser(biz.secretKey, 1_000);
  const made = await api<{ id: string }>("POST", "/payout/operations/withdrawals", {
    body: { amount: 100, destination: "x" },
    headers: { "x-payout-hash": user.hash },
  });
  expect(made.status).toBe(201);
  return { biz, user, id: made.body.id };
}

async function paymentLinkId(biz: CreatedBusiness) {
  const made = await api<{ id: string }>("POST", "/payment-links", {
    key: biz.secretKey,
    body: { amount: 1000, currency: "USD", items: [{ name: "Ticket", quantity: 1, price: 1000 }] },
  });
  expect(made.status).toBe(201);
  return made.body.id;
}

async function apiKeyId(biz: CreatedBusiness) {
  const made = await api<{ id: string }>("POST", "/api-keys", {
    key: biz.secretKey,
    body: { kind: "secret", name: "spare" },
  });
  expect(made.status).toBe(201);
  return made.body.id;
}

const cases: Record<string, () => Promise<Case>> = {
  "/session": async () => {
    const biz = await secretBiz();
    return {
      path: "/session",
      key: biz.secretKey,
      body: sessionBody(),
      other: sessionBody({ amount: 3000 }),
    };
  },
  "/payments/:session_id/refund": async () => {
    const biz = await secretBiz();
    const id = await paidSession(biz);
    return {
      path: `/payments/${id}/refund`,
      key: biz.secretKey,
      body: { amount: 100 },
      other: { amount: 200 },
    };
  },
  "/payments/:session_id/review": async () => {
    const biz = await secretBiz();
    const id = await paidSession(biz, "4000000000009235");
    return {
      path: `/payments/${id}/review`,
      key: biz.secretKey,
      body: { decision: "accept" },
      other: { decision: "decline" },
    };
  },
  "/subscriptions/:subscription_id/cancel": async () => {
    const { biz, id } = await subscription();
    return {
      path: `/subscriptions/${id}/cancel`,
      key: biz.secretKey,
      body: { at_period_end: false },
      other: { at_period_end: true },
    };
  },
  "/subscriptions/:subscription_id/resume": async () => {
    const { biz, id } = await subscription();
    const scheduled = await api("POST", `/subscriptions/${id}/cancel`, { key: biz.secretKey, body: {} });
    expect(scheduled.status).toBe(200);
    return { path: `/subscriptions/${id}/resume`, key: biz.secretKey, body: {}, other: { note: "again" } };
  },
  "/disputes/:dispute_id/evidence": async () => {
    const { biz, id } = await openedDispute();
    return {
      path: `/disputes/${id}/evidence`,
      key: biz.secretKey,
      body: { evidence: { customer_name: "Ada" } },
      other: { evidence: { customer_name: "Grace" } },
    };
  },
  "/disputes/:dispute_id/accept": async () => {
    const { biz, id } = await openedDispute();
    return { path: `/disputes/${id}/accept`, key: biz.secretKey, body: {}, other: { note: "again" } };
  },
  "/payout/create": async () => {
    const biz = await payoutBusiness(10_000);
    const email = `every-${++counter}@example.com`;
    return {
      path: "/payout/create",
      key: biz.secretKey,
      body: { email, amount: 100 },
      other: { email, amount: 101 },
    };
  },
  "/payout/operations": async () => {
    const biz = await payoutBusiness(10_000);
    const { hash } = await payoutUser(biz.secretKey, 1_000);
    const body = { action: "withdraw", amount: 100, destination: "x", payout_hash: hash };
    return { path: "/payout/operations", body, other: { ...body, amount: 101 } };
  },
  "/payout/operations/withdrawals": async () => {
    const biz = await payoutBusiness(10_000);
    const { hash } = await payoutUser(biz.secretKey, 1_000);
    return {
      path: "/payout/operations/withdrawals",
      headers: { "x-payout-hash": hash },
      body: { amount: 100, destination: "x" },
      other: { amount: 101, destination: "x" },
    };
  },
  "/payout/operations/withdrawals/:withdrawal_id/cancel": async () => {
    const { user, id } = await withdrawal();
    return {
      path: `/payout/operations/withdrawals/${id}/cancel`,
      headers: { "x-payout-hash": user.hash },
      body: {},
      other: { reason: "changed my mind" },
    };
  },
  "/payout/users/:user/deactivate": async () => {
    const biz = await payoutBusiness(10_000);
    const { email } = await payoutUser(biz.secretKey, 100);
    return { path: `/payout/users/${email}/deactivate`, key: biz.secretKey, body: {}, other: { note: "x" } };
  },
  "/payout/users/:user/reactivate": async () => {
    const biz = await payoutBusiness(10_000);
    const { email } = await payoutUser(biz.secretKey, 100);
    expect((await api("POST", `/payout/users/${email}/deactivate`, { key: biz.secretKey })).status).toBe(200);
    return { path: `/payout/users/${email}/reactivate`, key: biz.secretKey, body: {}, other: { note: "x" } };
  },
  "/payout/users/:user/rotate-hash": async () => {
    const biz = await payoutBusiness(10_000);
    const { email } = await payoutUser(biz.secretKey, 100);
    return { path: `/payout/users/${email}/rotate-hash`, key: biz.secretKey, body: {}, other: { note: "x" } };
  },
  "/payout/withdrawals/:withdrawal_id/complete": async () => {
    const { biz, id } = await withdrawal();
    return {
      path: `/payout/withdrawals/${id}/complete`,
      key: biz.secretKey,
      body: { settlement_reference: "wire-1" },
      other: { settlement_reference: "wire-2" },
    };
  },
  "/payout/withdrawals/:withdrawal_id/reject": async () => {
    const { biz, id } = await withdrawal();
    return {
      path: `/payout/withdrawals/${id}/reject`,
      key: biz.secretKey,
      body: { reason: "no such account" },
      other: { reason: "closed account" },
    };
  },
  "/api-keys": async () => {
    const biz = await secretBiz();
    return {
      path: "/api-keys",
      key: biz.secretKey,
      body: { kind: "public", name: "shop" },
      other: { kind: "public", name: "shop 2" },
    };
  },
  "/api-keys/:id/roll": async () => {
    const biz = await secretBiz();
    const id = await apiKeyId(biz);
    return { path: `/api-keys/${id}/roll`, key: biz.secretKey, body: {}, other: { expires_in_seconds: 60 } };
  },
  "/payment-links": async () => {
    const biz = await secretBiz();
    const body = { amount: 1000, currency: "USD", items: [{ name: "Ticket", quantity: 1, price: 1000 }] };
    return { path: "/payment-links", key: biz.secretKey, body, other: { ...body, metadata: { other: true } } };
  },
  "/payment-links/:id/deactivate": async () => {
    const biz = await secretBiz();
    const id = await paymentLinkId(biz);
    return { path: `/payment-links/${id}/deactivate`, key: biz.secretKey, body: {}, other: { note: "x" } };
  },
  "/payment-links/:id/activate": async () => {
    const biz = await secretBiz();
    const id = await paymentLinkId(biz);
    return { path: `/payment-links/${id}/activate`, key: biz.secretKey, body: {}, other: { note: "x" } };
  },
  "/api-keys/:id/revoke": async () => {
    const biz = await secretBiz();
    const id = await apiKeyId(biz);
    return { path: `/api-keys/${id}/revoke`, key: biz.secretKey, body: {}, other: { note: "x" } };
  },
  "/webhooks/endpoint": async () => {
    const biz = await secretBiz();
    return {
      path: "/webhooks/endpoint",
      key: biz.secretKey,
      body: { events: ["succeeded"] },
      other: { events: ["refunded"] },
    };
  },
  "/webhooks/endpoint/pause": async () => {
    const biz = await secretBiz();
    return { path: "/webhooks/endpoint/pause", key: biz.secretKey, body: {}, other: { note: "x" } };
  },
  "/webhooks/endpoint/resume": async () => {
    const biz = await secretBiz();
    const paused = await api("POST", "/webhooks/endpoint/pause", { key: biz.secretKey, body: {} });
    expect(paused.status).toBe(200);
    return { path: "/webhooks/endpoint/resume", key: biz.secretKey, body: {}, other: { resend_held: false } };
  },
  "/webhooks/events/resend-failed": async () => {
    const biz = await secretBiz();
    return {
      path: "/webhooks/events/resend-failed",
      key: biz.secretKey,
      body: { since: "2026-01-01T00:00:00Z" },
      other: { since: "2026-01-02T00:00:00Z" },
    };
  },
  "/webhooks/events/:event_id/resend": async () => {
    const biz = await secretBiz();
    const sent = await api<{ id: string }>("POST", "/webhooks/test", { key: biz.secretKey, body: {} });
    expect(sent.status).toBe(201);
    // Not delivered yet (no worker runs here): the refusal is the stored answer.
    return {
      path: `/webhooks/events/${sent.body.id}/resend`,
      key: biz.secretKey,
      body: {},
      other: { note: "x" },
      refusal: 409,
    };
  },
  "/webhooks/events/:event_id/listen-attempts": async () => {
    const biz = await secretBiz();
    const sent = await api<{ id: string }>("POST", "/webhooks/test", { key: biz.secretKey, body: {} });
    expect(sent.status).toBe(201);
    const attempt = { url: "http://localhost:4000/hook", status_code: 200, duration_ms: 5 };
    return {
      path: `/webhooks/events/${sent.body.id}/listen-attempts`,
      key: biz.secretKey,
      body: attempt,
      other: { ...attempt, status_code: 500 },
    };
  },
  "/webhooks/test": async () => {
    const biz = await secretBiz();
    return { path: "/webhooks/test", key: biz.secretKey, body: {}, other: { type: "refunded" } };
  },
  "/webhooks/token/rotate": async () => {
    const biz = await secretBiz();
    return { path: "/webhooks/token/rotate", key: biz.secretKey, body: {}, other: { overlap_seconds: 60 } };
  },
  "/sandbox/payout-balance": async () => {
    const biz = await secretBiz();
    return {
      path: "/sandbox/payout-balance",
      key: biz.secretKey,
      body: { amount: 100 },
      other: { amount: 101 },
    };
  },
  "/sandbox/clock/advance": async () => {
    const biz = await secretBiz();
    return {
      path: "/sandbox/clock/advance",
      key: biz.secretKey,
      body: { seconds: 60 },
      other: { seconds: 61 },
    };
  },
  "/sandbox/sessions/:session_id/pay": async () => {
    const biz = await secretBiz();
    const { session_id } = await newSession(biz);
    return {
      path: `/sandbox/sessions/${session_id}/pay`,
      key: biz.secretKey,
      body: {},
      other: { card_number: "4000000000000002" },
    };
  },
  "/checkout/sessions/:session_id/pay": async () => {
    const biz = await secretBiz();
    const { session_id } = await newSession(biz);
    const card = {
      number: "4242424242424242",
      expMonth: 12,
      expYear: new Date().getFullYear() + 1,
      cvc: "123",
    };
    const customerDetails = {
      name: "Ada Lovelace",
      email: "ada@example.com",
      address: { line1: "1 Main St", city: "London", postal_code: "N1 9GU", country: "GB" },
    };
    return {
      path: `/checkout/sessions/${session_id}/pay`,
      headers: { "sec-fetch-site": "same-origin" },
      body: { paymentMethodId: "stripe_credit", card, customerDetails },
      other: { paymentMethodId: "stripe_credit", card: { ...card, cvc: "456" }, customerDetails },
    };
  },
};

const posts = routes.filter((r) => r.method === "POST").map((r) => r.pattern);

describe("Idempotency-Key on every POST of the route table", () => {
  it("has a case for each POST but the provider callbacks", () => {
    expect(posts.filter((p) => !providerCallbacks.includes(p)).sort()).toEqual(Object.keys(cases).sort());
    expect(posts.filter((p) => providerCallbacks.includes(p)).sort()).toEqual([...providerCallbacks].sort());
  });

  it.each(Object.keys(cases))(
    "POST %s replays the same key and body, and answers 409 to another body",
    async (pattern) => {
      const c = await cases[pattern]!();
      const headers = { ...c.headers, "Idempotency-Key": freshKey() };
      const send = (body: unknown) =>
        api<Record<string, unknown>>("POST", c.path, { key: c.key, body, headers });
      const first = await send(c.body);
      const context = `${first.status} ${JSON.stringify(first.body)}`;
      if (c.refusal) expect(first.status, context).toBe(c.refusal);
      else expect(first.status, context).toBeLessThan(300);
      expect(first.headers.get("idempotent-replayed")).toBeNull();

      const again = await send(c.body);
      expect(again.status).toBe(first.status);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get("idempotent-replayed")).toBe("true");

      const other = await send(c.other);
      expect(other.status, JSON.stringify(other.body)).toBe(409);
      expect(other.body).toEqual({ error: "idempotency_key_reused", message: expect.any(String) });
    },
    60_000,
  );
});

describe("a cancel-now retried with its Idempotency-Key", () => {
  const cancelNow = (biz: CreatedBusiness, id: string, key: string | null) =>
    api<Record<string, unknown>>("POST", `/subscriptions/${id}/cancel`, {
      key: biz.secretKey,
      body: { at_period_end: false },
      headers: key ? { "Idempotency-Key": key } : {},
    });

  it("gets the first answer when the first answer was lost, where a retry without the key gets 409", async () => {
    const { biz, id } = await subscription();
    const key = freshKey();
    const lost = await cancelNow(biz, id, key);
    expect(lost.status, JSON.stringify(lost.body)).toBe(200);
    expect(lost.body.status).toBe("canceled");
    const retry = await cancelNow(biz, id, key);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(lost.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect((await cancelNow(biz, id, null)).status).toBe(409);
  }, 60_000);

  it("cancels once for concurrent retries: the later one waits for the first and replays it", async () => {
    const { biz, id } = await subscription();
    const key = freshKey();
    const answers = await Promise.all([
      cancelNow(biz, id, key),
      cancelNow(biz, id, key),
      cancelNow(biz, id, key),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers[1]!.body).toEqual(answers[0]!.body);
    expect(answers[2]!.body).toEqual(answers[0]!.body);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(2);
  }, 60_000);
});
