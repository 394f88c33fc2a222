import { describe, expect, it } from "vitest";
import type { AuditEventList, AuditEventView } from "@/lib/audit/audit-schemas";
import type { AuditAction } from "@/lib/audit/record-audit";
import { setPayoutsEnabled } from "@/lib/businesses/set-payouts-enabled";
import { asUser, uniqueEmail } from "@/lib/payouts/payout-test-helpers";
import {
  runJobs,
  signUp,
  subscriptionBusiness,
  subscriptionOfSession,
  withLoopbackApi,
  withSubscriptionProviders,
} from "@/lib/subscriptions/testing/subscription-fixtures";
import { api, sessionBody, testDb } from "@/test/helpers";

// Each change a secret key makes through the API is in the audit log, authored by that key, with
// the request's IP and user agent (decision 0045). PGlite and PostgreSQL alike.

withLoopbackApi();
withSubscriptionProviders();

type Biz = Awaited<ReturnType<typeof subscriptionBusiness>>["biz"];
const userAgent = "audit-test/1.0";
const ip = "198.51.100.7";

const call = (biz: Biz, method: string, path: string, body?: unknown) =>
  api<Record<string, unknown> & { id?: string; hash?: string; session_id?: string; status?: string }>(method, path, {
    key: biz.secretKey,
    body,
    ip,
    headers: { "user-agent": userAgent },
  });

async function paid(biz: Biz, card = "4242424242424242"): Promise<string> {
  const created = await call(biz, "POST", "/session", sessionBody());
  const pay = await call(biz, "POST", `/sandbox/sessions/${created.body.session_id}/pay`, { card_number: card });
  expect(pay.status, JSON.stringify(pay.body)).toBe(200);
  return created.body.session_id!;
}

/** Payouts on and funded, outside any actor (not recorded). */
async function fundPayouts(biz: Biz) {
  await setPayoutsEnabled(testDb(), biz.business.id, true);
  expect((await call(biz, "POST", "/sandbox/payout-balance", { amount: 5000 })).status).toBe(200);
}

async function newest(biz: Biz, action: AuditAction): Promise<AuditEventView> {
  const res = await api<AuditEventList>("GET", `/audit-events?action=${action}&limit=1`, { key: biz.secretKey });
  expect(res.status).toBe(200);
  expect(res.body.data, `no ${action} recorded`).toHaveLength(1);
  return res.body.data[0]!;
}

type Case = { action: AuditAction; run: (biz: Biz) => Promise<{ target: string; changes?: Record<string, unknown> }> };

const cases: Case[] = [
  {
    action: "payment.refund",
    run: async (biz) => {
      const session = await paid(biz);
      expect((await call(biz, "POST", `/payments/${session}/refund`, { amount: 500 })).status).toBe(201);
      return { target: session, changes: { refunded_amount: { from: 0, to: 500 } } };
    },
  },
  {
    action: "payment.review",
    run: async (biz) => {
      const session = await paid(biz, "4000000000009235");
      expect((await call(biz, "POST", `/payments/${session}/review`, { decision: "accept" })).status).toBe(200);
      return { target: session, changes: { status: { from: "pending_review", to: "succeeded" } } };
    },
  },
  {
    action: "subscription.cancel",
    run: async (biz) => {
      const { sessionId } = await signUp(biz);
      await runJobs(biz.business.id);
      const sub = await subscriptionOfSession(sessionId);
      expect((await call(biz, "POST", `/subscriptions/${sub.id}/cancel`, {})).status).toBe(200);
      return { target: sub.id, changes: { cancel_at_period_end: { from: false, to: true } } };
    },
  },
  {
    action: "subscription.resume",
    run: async (biz) => {
      const { sessionId } = await signUp(biz);
      await runJobs(biz.business.id);
      const sub = await subscriptionOfSession(sessionId);
      expect((await call(biz, "POST", `/subscriptions/${sub.id}/cancel`, {})).status).toBe(200);
      expect((await call(biz, "POST", `/subscriptions/${sub.id}/resume`, {})).status).toBe(200);
      return { target: sub.id, changes: { cancel_at_period_end: { from: true, to: false } } };
    },
  },
  {
    action: "api_key.create",
    run: async (biz) => {
      const res = await call(biz, "POST", "/api-keys", { kind: "public", name: "Shop front" });
      expect(res.status).toBe(201);
      return { target: res.body.id!, changes: { kind: { from: null, to: "public" }, name: { from: null, to: "Shop front" } } };
    },
  },
  {
    action: "api_key.roll",
    run: async (biz) => {
      const key = await call(biz, "POST", "/api-keys", { kind: "public" });
      expect((await call(biz, "POST", `/api-keys/${key.body.id}/roll`, {})).status).toBe(200);
      return { target: key.body.id! };
    },
  },
  {
    action: "api_key.revoke",
    run: async (biz) => {
      const key = await call(biz, "POST", "/api-keys", { kind: "public" });
      expect((await call(biz, "POST", `/api-keys/${key.body.id}/revoke`)).status).toBe(200);
      return { target: key.body.id!, changes: { status: { from: "active", to: "revoked" } } };
    },
  },
  {
    action: "webhook_endpoint.update",
    run: async (biz) => {
      expect((await call(biz, "POST", "/webhooks/endpoint", { events: ["succeeded"] })).status).toBe(200);
      return { target: biz.business.id, changes: { events: { from: biz.business.webhookEvents, to: ["succeeded"] } } };
    },
  },
  {
    action: "webhook_endpoint.pause",
    run: async (biz) => {
      expect((await call(biz, "POST", "/webhooks/endpoint/pause", {})).status).toBe(200);
      return { target: biz.business.id, changes: { state: { from: "active", to: "paused" } } };
    },
  },
  {
    action: "webhook_endpoint.resume",
    run: async (biz) => {
      expect((await call(biz, "POST", "/webhooks/endpoint/pause", {})).status).toBe(200);
      expect((await call(biz, "POST", "/webhooks/endpoint/resume", {})).status).toBe(200);
      return { target: biz.business.id, changes: { state: { from: "paused", to: "active" } } };
    },
  },
  {
    action: "webhook_token.rotate",
    run: async (biz) => {
      expect((await call(biz, "POST", "/webhooks/token/rotate", {})).status).toBe(200);
      return { target: biz.business.id, changes: { token: { from: "[redacted]", to: "[redacted]" } } };
    },
  },
  {
    action: "payout.allocate",
    run: async (biz) => {
      await fundPayouts(biz);
      const email = uniqueEmail("pay");
      const res = await call(biz, "POST", "/payout/create", { email, amount: 1200 });
      expect(res.status).toBe(201);
      const user = await call(biz, "GET", `/payout/users/${encodeURIComponent(email)}`);
      return { target: String(user.body.id), changes: { email: { from: null, to: email }, amount: { from: null, to: 1200 } } };
    },
  },
  ...(
    [
      ["complete", "payout_withdrawal.complete"],
      ["reject", "payout_withdrawal.reject"],
    ] as const
  ).map(
    ([verb, action]): Case => ({
      action,
      run: async (biz) => {
        await fundPayouts(biz);
        const created = await call(biz, "POST", "/payout/create", { email: uniqueEmail("wd"), amount: 1000 });
        const wd = await asUser<{ id: string }>(created.body.hash!, "POST", "/payout/operations/withdrawals", { amount: 400, destination: "IBAN DE89 3704 0044 0532 0130 00" });
        expect(wd.status).toBe(201);
        expect((await call(biz, "POST", `/payout/withdrawals/${wd.body.id}/${verb}`, verb === "reject" ? { reason: "no" } : {})).status).toBe(200);
        return { target: wd.body.id, changes: { status: { from: "pending", to: verb === "complete" ? "completed" : "rejected" } } };
      },
    }),
  ),
  ...(
    [
      ["deactivate", "payout_user.deactivate"],
      ["reactivate", "payout_user.reactivate"],
      ["rotate_hash", "payout_user.rotate_hash"],
    ] as const
  ).map(
    ([verb, action]): Case => ({
      action,
      run: async (biz) => {
        await fundPayouts(biz);
        const email = uniqueEmail("pu");
        await call(biz, "POST", "/payout/create", { email, amount: 100 });
        const user = await call(biz, "GET", `/payout/users/${encodeURIComponent(email)}`);
        const res = await call(biz, "POST", `/payout/users/${user.body.id}/${verb.replace("_", "-")}`, {});
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return { target: String(user.body.id) };
      },
    }),
  ),
];

describe("the audit log records each change a secret key makes", () => {
  it.each(cases.map((c) => [c.action, c] as const))("%s", async (action, { run }) => {
    const { biz } = await subscriptionBusiness();
    const before = new Date().toISOString();
    const { target, changes } = await run(biz);
    const event = await newest(biz, action);
    expect(event).toMatchObject({
      object: "audit_event",
      action,
      actor: { type: "api_key", prefix: `${biz.secretKey.slice(0, 12)}…` },
      target: { id: target },
      ip,
      user_agent: userAgent,
    });
    if (changes) expect(event.changes).toMatchObject(changes);
    expect(event.created_at >= before.slice(0, 19)).toBe(true);
  });

  it("records nothing for a change refused (the transaction rolled back) nor for reads", async () => {
    const { biz } = await subscriptionBusiness();
    const session = await paid(biz);
    expect((await call(biz, "POST", `/payments/${session}/refund`, { amount: 999_999 })).status).toBe(400);
    await call(biz, "GET", "/api-keys");
    const all = await api<AuditEventList>("GET", "/audit-events", { key: biz.secretKey });
    expect(all.body.data).toEqual([]);
  });
});
