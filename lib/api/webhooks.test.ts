import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  businesses,
  webhookDeliveries,
  webhookEvents,
  webhookEventTypes,
  type Session,
  type WebhookEventType,
} from "@/db/schema";
import type { CreatedBusiness } from "@/lib/businesses/create-business";
import { resetEnv } from "@/lib/env";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";
import type { WebhookDeliveryOptions } from "@/lib/webhooks/delivery-options";
import type { WebhookAttemptView, WebhookEventView } from "@/lib/webhooks/webhook-event-view";
import { createSessionRow, createWebhookBusiness, payAndEmit } from "@/lib/webhooks/testing/fixtures";
import {
  startLoopbackReceiver,
  type LoopbackReceiver,
  type ReceivedRequest,
  type Reply,
} from "@/lib/webhooks/testing/loopback-receiver";
import { startEmbeddedWorker, type EmbeddedWorker } from "@/lib/worker/embedded-worker";
import { expectFieldErrors, isErrorMessage, isFieldMap } from "@/test/api-assertions";
import { fuzzRuns } from "@/test/fuzz";
import { api, createTestBusiness, testDb } from "@/test/helpers";

// The webhook operations API, through the router, against real deliveries to a loopback receiver.

beforeAll(() => {
  process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
  resetEnv();
});
afterAll(() => {
  delete process.env.ALLOW_PRIVATE_WEBHOOK_URLS;
  resetEnv();
});

const compressed: Partial<WebhookDeliveryOptions> = {
  scheduleMs: [0, 100, 100, 100],
  timeoutMs: 1000,
  allowPrivate: true,
};

const open: { workers: EmbeddedWorker[]; receivers: LoopbackReceiver[] } = { workers: [], receivers: [] };
afterEach(async () => {
  await Promise.all(open.workers.splice(0).map((w) => w.stop()));
  await Promise.all(open.receivers.splice(0).map((r) => r.close()));
});

function worker() {
  const w = startEmbeddedWorker(testDb(), {
    force: true,
    pollIntervalMs: 20,
    context: { webhooks: compressed },
  });
  open.workers.push(w);
  return w;
}

async function receiver(reply?: (request: ReceivedRequest, index: number) => Reply) {
  const r = await startLoopbackReceiver(reply);
  open.receivers.push(r);
  return r;
}

// The bound only ends a hang: on a loaded 2-core machine a database round trip can take seconds.
async function waitUntil(check: () => Promise<boolean>, timeoutMs = 45_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function eventStatus(id: string) {
  const [row] = await testDb().select().from(webhookEvents).where(eq(webhookEvents.id, id));
  return row!.status;
}
const settled = (id: string) => async () => (await eventStatus(id)) !== "pending";

type Page = { data: WebhookEventView[]; has_more: boolean };
const listEvents = (biz: CreatedBusiness, query = "") =>
  api<Page>("GET", `/webhooks/events${query ? `?${query}` : ""}`, { key: biz.secretKey });
const getEvent = (biz: CreatedBusiness, id: string) =>
  api<WebhookEventView>("GET", `/webhooks/events/${encodeURIComponent(id)}`, { key: biz.secretKey });

function expectError(res: { status: number; body: unknown }, status: number, error: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(isErrorMessage(res.body), JSON.stringify(res.body)).toBe(true);
  expect((res.body as { error: string }).error).toBe(error);
}

/** The Standard Webhooks headers of a received request. */
const swHeaders = (got: ReceivedRequest) => ({
  "webhook-id": String(got.headers["webhook-id"]),
  "webhook-timestamp": String(got.headers["webhook-timestamp"]),
  "webhook-signature": String(got.headers["webhook-signature"]),
});
const verifies = (token: string, got: ReceivedRequest) => {
  try {
    new Webhook(token).verify(got.body.toString(), swHeaders(got));
    return true;
  } catch {
    return false;
  }
};
const hmac = (token: string, body: Buffer | string) => createHmac("sha256", token).update(body).digest("hex");
/** The log shows exactly the headers the receiver got (signatures included), every one of them. */
function expectShownAsReceived(request: WebhookAttemptView["request"], got: ReceivedRequest) {
  expect(request).toMatchObject({ method: "POST", headers_complete: true });
  for (const [name, value] of Object.entries(request!.headers))
    expect(got.headers[name.toLowerCase()], name).toBe(value);
  expect(Object.keys(request!.headers).map((n) => n.toLowerCase())).toEqual(
    expect.arrayContaining(["signature", "webhook-id", "webhook-timestamp", "webhook-signature"]),
  );
}

/** Another event about a session that already has its payment (payAndEmit writes one per session). */
async function emitAgain(biz: CreatedBusiness, session: Session, type: WebhookEventType, orderId?: string) {
  const event = await transactionWithJobs(testDb(), (tx) =>
    emitWebhookEvent(tx, { business: biz.business, session, type, orderId }),
  );
  return event!;
}

const orderOf = (got: ReceivedRequest) => (JSON.parse(got.body.toString()) as { order_id: string }).order_id;

describe("webhook operations API: authentication", () => {
  it("answers 401 to a public key, a missing key and an unknown key on every endpoint", async () => {
    const biz = await createTestBusiness();
    const calls: [string, string, unknown?][] = [
      ["GET", "/webhooks/endpoint"],
      ["POST", "/webhooks/endpoint", { events: ["succeeded"] }],
      ["GET", "/webhooks/events"],
      ["GET", "/webhooks/events/evt_01JF3Q6R1XKX2V7T9Y0ZB4C8DM"],
      ["POST", "/webhooks/events/evt_01JF3Q6R1XKX2V7T9Y0ZB4C8DM/resend", {}],
      ["POST", "/webhooks/events/resend-failed", { since: "2026-01-01T00:00:00Z" }],
      ["POST", "/webhooks/test", {}],
      ["GET", "/webhooks/token"],
      ["POST", "/webhooks/token/rotate", {}],
    ];
    for (const [method, path, body] of calls)
      for (const key of [biz.publicKey, null, "sk_test_00000000000000000000000000000000"]) {
        const res = await api(method, path, { key, body });
        expect(res.status, `${method} ${path} ${key}`).toBe(401);
        expect(res.body).toEqual({ error: "Unauthorized" });
      }
    // Nothing was changed by the refused calls.
    expect(await api("GET", "/webhooks/token", { key: biz.secretKey })).toMatchObject({
      status: 200,
      body: { token: biz.webhookToken, previous_token_expires_at: null },
    });
  });
});

describe("GET/POST /webhooks/endpoint", () => {
  it("reads and changes the URL and the enabled kinds, never showing the token", async () => {
    const biz = await createWebhookBusiness("https://shop.example.com/hooks", ["succeeded"]);
    const read = await api("GET", "/webhooks/endpoint", { key: biz.secretKey });
    expect(read).toMatchObject({
      status: 200,
      body: { url: "https://shop.example.com/hooks", events: ["succeeded"] },
    });
    expect(JSON.stringify(read.body)).not.toContain("whsec_");

    const changed = await api("POST", "/webhooks/endpoint", {
      key: biz.secretKey,
      body: { url: " https://shop.example.com/v2/hooks ", events: ["refunded", "succeeded", "refunded"] },
    });
    // Normalised URL; kinds once each, in the interface's order.
    expect(changed).toMatchObject({
      status: 200,
      body: { url: "https://shop.example.com/v2/hooks", events: ["succeeded", "refunded"] },
    });
    // Only what is given changes.
    const onlyEvents = await api("POST", "/webhooks/endpoint", { key: biz.secretKey, body: { events: [] } });
    expect(onlyEvents.body).toMatchObject({ url: "https://shop.example.com/v2/hooks", events: [], state: "active" });
    const [row] = await testDb().select().from(businesses).where(eq(businesses.id, biz.business.id));
    expect(row).toMatchObject({ webhookUrl: "https://shop.example.com/v2/hooks", webhookEvents: [] });
    const cleared = await api("POST", "/webhooks/endpoint", { key: biz.secretKey, body: { url: null } });
    expect(cleared.body).toMatchObject({ url: null, events: [] });
  });

  it("refuses bad URLs (SSRF policy) and unknown kinds with the 400 field map, changing nothing", async () => {
    const biz = await createWebhookBusiness("https://shop.example.com/hooks", ["succeeded"]);
    const post = (body: unknown) => api("POST", "/webhooks/endpoint", { key: biz.secretKey, body });
    for (const url of [
      "ftp://shop.example.com/",
      "nope",
      "file:///etc/passwd",
      "http://",
      "https://exa mple.com/",
    ])
      expectFieldErrors(await post({ url }), ["url"]);
    // Private targets are refused where the environment does not allow them.
    process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "";
    resetEnv();
    try {
      for (const url of [
        "http://127.0.0.1:4000/hooks",
        "http://localhost/hooks",
        "http://169.254.169.254/",
        "http://[::1]/",
        "http://10.0.0.7/",
      ]) {
        const res = await post({ url });
        expectFieldErrors(res, ["url"]);
        expect((res.body as unknown as { url: string[] }).url[0]).toMatch(/public address/);
      }
    } finally {
      process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
      resetEnv();
    }
    const unknown = await post({ events: ["succeeded", "exploded"] });
    expectFieldErrors(unknown, ["events"]);
    expect((unknown.body as unknown as { events: string[] }).events[0]).toContain('"exploded"');
    // A valid URL with a bad kind changes nothing either; both fields are named when both are bad.
    expectFieldErrors(await post({ url: "https://other.example.com/", events: ["nope"] }), ["events"]);
    expectFieldErrors(await post({ url: "nope", events: ["nope"] }), ["url", "events"]);
    for (const [body, field] of [
      [{ url: 5 }, "url"],
      [{ events: "succeeded" }, "events"],
      [{ events: [1] }, "events"],
      [{ url: "x".repeat(3000) }, "url"],
      [{ url: `https://shop.example.com/${"a".repeat(2049 - 25)}` }, "url"],
    ] as const)
      expectFieldErrors(await post(body), [field]);
    expectError(
      await api("POST", "/webhooks/endpoint", {
        key: biz.secretKey,
        rawBody: "[1]",
        headers: { "content-type": "application/json" },
      }),
      400,
      "invalid_json",
    );
    expect((await api("GET", "/webhooks/endpoint", { key: biz.secretKey })).body).toMatchObject({
      url: "https://shop.example.com/hooks",
      events: ["succeeded"],
    });
    // The bound itself: 2,048 characters are accepted (2,049 refused above).
    const longest = `https://shop.example.com/${"a".repeat(2048 - 25)}`;
    expect(longest).toHaveLength(2048);
    const accepted = await post({ url: longest });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ url: longest });
  });

  it("honours Idempotency-Key", async () => {
    const biz = await createWebhookBusiness(null, ["succeeded"]);
    const headers = { "idempotency-key": "endpoint-1" };
    const first = await api("POST", "/webhooks/endpoint", {
      key: biz.secretKey,
      headers,
      body: { events: ["expired"] },
    });
    const again = await api("POST", "/webhooks/endpoint", {
      key: biz.secretKey,
      headers,
      body: { events: ["expired"] },
    });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expectError(
      await api("POST", "/webhooks/endpoint", {
        key: biz.secretKey,
        headers,
        body: { events: ["refunded"] },
      }),
      409,
      "idempotency_key_reused",
    );
  });
});

describe("GET /webhooks/events", () => {
  it("lists newest first with filters and cursor pages; each event carries its payload and attempts", async () => {
    // Orders whose name starts with "fail" are refused by the receiver, the rest acknowledged.
    const hooks = await receiver((req) =>
      orderOf(req).startsWith("fail") ? { status: 500, body: "boom" } : { status: 200, body: "ok" },
    );
    const biz = await createWebhookBusiness(hooks.url);
    const other = await createWebhookBusiness(hooks.url);
    const s1 = await createSessionRow(biz, { order_id: "ok-1" });
    const s2 = await createSessionRow(biz, { order_id: "fail-2" });
    const s3 = await createSessionRow(biz, { order_id: "ok-3" });
    const e1 = (await payAndEmit(biz, s1))!;
    const e2 = (await payAndEmit(biz, s2))!;
    const e3 = (await payAndEmit(biz, s3, { type: "refunded" }))!;
    const e4 = await emitAgain(biz, s3, "expired");
    await payAndEmit(other, await createSessionRow(other));

    // No worker yet: everything is pending.
    const pending = await listEvents(biz, "status=pending");
    expect(pending.status).toBe(200);
    expect(pending.body.data.map((e) => e.id)).toEqual([e4.id, e3.id, e2.id, e1.id]);
    expect(pending.body.data[0]).toMatchObject({ status: "pending", attempts: [], attempt_count: 0 });

    worker();
    for (const e of [e1, e2, e3, e4]) await waitUntil(settled(e.id));

    const all = await listEvents(biz);
    expect(all.body.has_more).toBe(false);
    expect(all.body.data.map((e) => e.id)).toEqual([e4.id, e3.id, e2.id, e1.id]);
    const first = all.body.data.find((e) => e.id === e1.id)!;
    expect(first).toMatchObject({
      type: "succeeded",
      test: false,
      status: "delivered",
      session_id: s1.id,
      order_id: "ok-1",
      subscription_id: null,
      resend_count: 0,
      next_attempt_at: null,
    });
    // One attempt on a quiet machine; on a busy one the acknowledgement can come after the delivery
    // timeout, and the retry is acknowledged: every attempt is listed, the last one answered 200.
    expect(first.attempt_count).toBeGreaterThanOrEqual(1);
    expect(first.attempts).toHaveLength(first.attempt_count);
    if (first.attempt_count === 1) expect(first.last_error).toBeNull();
    expect(first.payload).toMatchObject({ type: "succeeded", order_id: "ok-1", amount: 2500 });
    expect(first.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(first.delivered_at).toMatch(/\.\d{6}Z$/);

    const ids = async (query: string) => (await listEvents(biz, query)).body.data.map((e) => e.id);
    expect(await ids("status=failed")).toEqual([e2.id]);
    expect(await ids("status=delivered")).toEqual([e4.id, e3.id, e1.id]);
    expect(await ids("status=pending")).toEqual([]);
    expect(await ids("type=refunded")).toEqual([e3.id]);
    expect(await ids("order_id=ok-3")).toEqual([e4.id, e3.id]);
    expect(await ids(`session_id=${s3.id}`)).toEqual([e4.id, e3.id]);
    expect(await ids(`session_id=${s3.id}&type=expired`)).toEqual([e4.id]);
    expect(await ids("order_id=unknown")).toEqual([]);

    // Pages of 2, newest first.
    const p1 = await listEvents(biz, "limit=2");
    expect(p1.body.data.map((e) => e.id)).toEqual([e4.id, e3.id]);
    expect(p1.body.has_more).toBe(true);
    const p2 = await listEvents(biz, `limit=2&starting_after=${e3.id}`);
    expect(p2.body.data.map((e) => e.id)).toEqual([e2.id, e1.id]);
    expect(p2.body.has_more).toBe(false);
    expect((await listEvents(biz, `starting_after=${e1.id}`)).body).toEqual({ data: [], has_more: false });

    // Default limit 10.
    for (let i = 0; i < 8; i++) await emitAgain(biz, s1, "pending_review", `more-${i}`);
    const defaultPage = await listEvents(biz);
    expect(defaultPage.body.data).toHaveLength(10);
    expect(defaultPage.body.has_more).toBe(true);
    expect((await listEvents(biz, "limit=100")).body.data).toHaveLength(12);

    // The other business's events never show.
    const otherList = await listEvents(other);
    expect(otherList.body.data).toHaveLength(1);
    expect(otherList.body.data[0]!.id).not.toBe(e1.id);

    for (const query of [
      "limit=0",
      "limit=101",
      "limit=abc",
      "limit=-1",
      "status=exploded",
      "type=paid",
      "starting_after=cs_123",
      "starting_after=evt_",
      `order_id=${"x".repeat(256)}`,
      "order_id=%00",
    ]) {
      expectFieldErrors(await listEvents(biz, query), [query.split("=")[0]!]);
    }
  });

  it("shows each attempt's request (headers as sent, signatures without the token) and response", async () => {
    const hooks = await receiver((_req, i) =>
      i === 0 ? { status: 500, body: "boom 0" } : { status: 200, body: "thanks" },
    );
    const biz = await createWebhookBusiness(hooks.url);
    worker();
    const session = await createSessionRow(biz);
    const event = (await payAndEmit(biz, session))!;
    await waitUntil(settled(event.id));

    const res = await getEvent(biz, event.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: event.id, status: "delivered", attempt_count: 2 });
    const [a1, a2] = res.body.attempts as [WebhookAttemptView, WebhookAttemptView];
    expect(a1).toMatchObject({
      number: 1,
      round: 1,
      status: "failed",
      response: { status: 500, body: "boom 0" },
      error: "HTTP 500",
    });
    expect(a2).toMatchObject({
      number: 2,
      round: 1,
      status: "succeeded",
      response: { status: 200, body: "thanks" },
      error: null,
    });
    for (const [i, attempt] of [a1, a2].entries()) {
      const got = hooks.requests[i]!;
      expect(attempt.started_at).toMatch(/\.\d{6}Z$/);
      expect(attempt.finished_at).toMatch(/\.\d{6}Z$/);
      expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
      expect(attempt.request).toMatchObject({ method: "POST", url: hooks.url, headers_complete: true });
      // Every header shown is the one the receiver got, byte for byte.
      for (const [name, value] of Object.entries(attempt.request!.headers))
        expect(got.headers[name.toLowerCase()], name).toBe(value);
      expect(Object.keys(attempt.request!.headers).sort()).toEqual(
        [
          "Connection",
          "Content-Length",
          "Content-Type",
          "Signature",
          "User-Agent",
          "webhook-id",
          "webhook-signature",
          "webhook-timestamp",
        ].sort(),
      );
      expect(attempt.request!.headers.Signature).toBe(hmac(biz.webhookToken, got.body));
    }
    expect(JSON.stringify(res.body)).not.toContain(biz.webhookToken);
    expect(JSON.stringify(res.body)).not.toContain(biz.webhookToken.slice(6));
  });

  it("answers 404 for unknown events and for another business's events alike", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url);
    const other = await createWebhookBusiness(hooks.url);
    const theirs = (await payAndEmit(other, await createSessionRow(other)))!;
    for (const id of [theirs.id, "evt_01JF3Q6R1XKX2V7T9Y0ZB4C8DM", "nope", "%"]) {
      expectError(await getEvent(biz, id), 404, "webhook_event_not_found");
      expectError(
        await api("POST", `/webhooks/events/${encodeURIComponent(id)}/resend`, { key: biz.secretKey }),
        404,
        "webhook_event_not_found",
      );
    }
    const [row] = await testDb().select().from(webhookEvents).where(eq(webhookEvents.id, theirs.id));
    expect(row!.round).toBe(1);
  });
});

describe("resending", () => {
  it("resends one event: same id and body, a new round of attempts in the log; 409 while it runs", async () => {
    let up = false;
    const hooks = await receiver(() => (up ? { status: 200, body: "ok" } : { status: 503, body: "down" }));
    const biz = await createWebhookBusiness(hooks.url);
    const w = worker();
    const event = (await payAndEmit(biz, await createSessionRow(biz)))!;
    await waitUntil(settled(event.id));
    expect((await getEvent(biz, event.id)).body).toMatchObject({
      status: "failed",
      attempt_count: 4,
      last_error: "HTTP 503",
    });
    await w.stop();

    up = true;
    const resent = await api<WebhookEventView>("POST", `/webhooks/events/${event.id}/resend`, {
      key: biz.secretKey,
    });
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id: event.id, status: "pending", resend_count: 1, last_error: null });
    expect(resent.body.attempts).toHaveLength(4);
    // Still running (no worker): a second resend is refused.
    expectError(
      await api("POST", `/webhooks/events/${event.id}/resend`, { key: biz.secretKey }),
      409,
      "webhook_event_pending",
    );

    worker();
    await waitUntil(settled(event.id));
    const after = await getEvent(biz, event.id);
    expect(after.body).toMatchObject({ status: "delivered", attempt_count: 5, resend_count: 1 });
    expect(after.body.attempts.map((a) => [a.number, a.round, a.status])).toEqual([
      [1, 1, "failed"],
      [2, 1, "failed"],
      [3, 1, "failed"],
      [4, 1, "failed"],
      [5, 2, "succeeded"],
    ]);
    expect(hooks.requests).toHaveLength(5);
    expect(new Set(hooks.requests.map((r) => r.headers["webhook-id"]))).toEqual(new Set([event.id]));
    expect(new Set(hooks.requests.map((r) => r.body.toString()))).toEqual(
      new Set([hooks.requests[0]!.body.toString()]),
    );
  });

  it("replays a resend with the same Idempotency-Key instead of starting another round", async () => {
    const hooks = await receiver(() => ({ status: 500 }));
    const biz = await createWebhookBusiness(hooks.url);
    const w = worker();
    const event = (await payAndEmit(biz, await createSessionRow(biz)))!;
    await waitUntil(settled(event.id));
    await w.stop();
    const headers = { "idempotency-key": `resend-${event.id}` };
    const first = await api("POST", `/webhooks/events/${event.id}/resend`, { key: biz.secretKey, headers });
    const again = await api("POST", `/webhooks/events/${event.id}/resend`, { key: biz.secretKey, headers });
    expect(first.status).toBe(200);
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const [row] = await testDb().select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
    expect(row!.round).toBe(2);
  });

  it("resends every event that finally failed since a time, and answers how many", async () => {
    let up = false;
    const hooks = await receiver(() => (up ? { status: 200 } : { status: 500 }));
    const biz = await createWebhookBusiness(hooks.url);
    const other = await createWebhookBusiness(hooks.url);
    worker();
    const failedBefore = (await payAndEmit(biz, await createSessionRow(biz)))!;
    await waitUntil(settled(failedBefore.id));
    await new Promise((r) => setTimeout(r, 50));
    const since = new Date();
    await new Promise((r) => setTimeout(r, 50));
    const failed = [];
    for (let i = 0; i < 3; i++) failed.push((await payAndEmit(biz, await createSessionRow(biz)))!);
    const theirs = (await payAndEmit(other, await createSessionRow(other)))!;
    for (const e of [...failed, theirs]) await waitUntil(settled(e.id));
    up = true;
    const delivered = (await payAndEmit(biz, await createSessionRow(biz)))!;
    await waitUntil(settled(delivered.id));

    const post = (body: unknown, headers?: Record<string, string>) =>
      api("POST", "/webhooks/events/resend-failed", { key: biz.secretKey, body, headers });
    for (const body of [
      {},
      { since: "yesterday" },
      { since: 1700000000 },
      { since: "2026-13-01T00:00:00Z" },
      { since: "2026-11-22T04:00:00" },
    ])
      expectFieldErrors(await post(body), ["since"]);
    expect((await post({ since: new Date(Date.now() + 60_000).toISOString() })).body).toMatchObject({
      resent: 0,
    });

    const headers = { "idempotency-key": "resend-failed-1" };
    const res = await post({ since: since.toISOString() }, headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ resent: 3, since: `${since.toISOString().slice(0, 23)}000Z` });
    // A retry with the same key replays the answer and resends nothing more.
    const replay = await post({ since: since.toISOString() }, headers);
    expect(replay.body).toEqual(res.body);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");

    for (const e of failed) await waitUntil(settled(e.id));
    for (const e of failed) expect(await eventStatus(e.id)).toBe("delivered");
    expect(await eventStatus(failedBefore.id)).toBe("failed");
    expect(await eventStatus(theirs.id)).toBe("failed");
    expect((await listEvents(biz, "status=failed")).body.data.map((e) => e.id)).toEqual([failedBefore.id]);
    // An offset time names the same instant.
    const offset = await post({ since: "2000-01-01T02:00:00+02:00" });
    expect(offset.body).toEqual({ resent: 1, since: "2000-01-01T00:00:00.000000Z" });
  });

  it("refuses resends and test events while no URL is set (409), and does not count them", async () => {
    const biz = await createWebhookBusiness(null);
    const skipped = (await payAndEmit(biz, await createSessionRow(biz)))!;
    expect(skipped.status).toBe("skipped");
    expectError(
      await api("POST", `/webhooks/events/${skipped.id}/resend`, { key: biz.secretKey }),
      409,
      "webhook_url_not_set",
    );
    expectError(
      await api("POST", "/webhooks/events/resend-failed", {
        key: biz.secretKey,
        body: { since: "2000-01-01T00:00:00Z" },
      }),
      409,
      "webhook_url_not_set",
    );
    expectError(await api("POST", "/webhooks/test", { key: biz.secretKey }), 409, "webhook_url_not_set");
    expect((await listEvents(biz)).body.data.map((e) => e.id)).toEqual([skipped.id]);

    // Once a URL is set, a skipped event can be sent.
    const hooks = await receiver();
    await api("POST", "/webhooks/endpoint", { key: biz.secretKey, body: { url: hooks.url } });
    worker();
    expect((await api("POST", `/webhooks/events/${skipped.id}/resend`, { key: biz.secretKey })).status).toBe(
      200,
    );
    await waitUntil(settled(skipped.id));
    expect(await eventStatus(skipped.id)).toBe("delivered");
    expect(hooks.requests[0]!.headers["webhook-id"]).toBe(skipped.id);
  });

  it("resends on the business's clock: a resent round's retries come with the sandbox clock", async () => {
    const hooks = await receiver(() => ({ status: 500, body: "still down" }));
    const biz = await createWebhookBusiness(hooks.url);
    const w = worker();
    const event = (await payAndEmit(biz, await createSessionRow(biz)))!;
    await waitUntil(settled(event.id));
    await w.stop();
    expect(hooks.requests).toHaveLength(4);

    // No worker: only the clock advance runs due work, with the default schedule (0, 1 min, 10 min, 1 h).
    expect((await api("POST", `/webhooks/events/${event.id}/resend`, { key: biz.secretKey })).status).toBe(
      200,
    );
    const advance = (seconds: number) =>
      api("POST", "/sandbox/clock/advance", { key: biz.secretKey, body: { seconds } });
    await advance(1);
    expect(hooks.requests).toHaveLength(5);
    const [row] = await testDb().select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
    expect(row!.status).toBe("pending");
    await advance(30);
    expect(hooks.requests).toHaveLength(5); // the next attempt is a minute later on the business's clock
    await advance(31);
    expect(hooks.requests).toHaveLength(6);
    await advance(600);
    await advance(3600);
    expect(hooks.requests).toHaveLength(8);
    await advance(86_400);
    expect(hooks.requests).toHaveLength(8); // four attempts per round, never a fifth
    expect(await eventStatus(event.id)).toBe("failed");
  });
});

describe("POST /webhooks/test", () => {
  it("sends a signed test event marked test: true, of any kind, and answers the event", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url, ["succeeded"]);
    worker();
    const res = await api<WebhookEventView>("POST", "/webhooks/test", { key: biz.secretKey });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "succeeded", test: true, status: "pending", session_id: null });
    expect(res.body.id).toMatch(/^evt_/);
    expect(res.body.order_id).toBe(`test_${res.body.id}`);
    expect(res.body.payload).toMatchObject({
      type: "succeeded",
      test: true,
      order_id: `test_${res.body.id}`,
    });

    await hooks.waitForRequests(1);
    const got = hooks.requests[0]!;
    expect(got.headers["webhook-id"]).toBe(res.body.id);
    expect(got.headers.signature).toBe(hmac(biz.webhookToken, got.body));
    expect(verifies(biz.webhookToken, got)).toBe(true);
    const body = JSON.parse(got.body.toString()) as Record<string, unknown>;
    expect(body).toEqual(res.body.payload);
    expect(Object.keys(body).at(-1)).toBe("test");
    await waitUntil(settled(res.body.id));
    expect((await getEvent(biz, res.body.id)).body).toMatchObject({
      status: "delivered",
      test: true,
      attempt_count: 1,
    });

    // Every kind, enabled or not, with that kind's fields.
    for (const type of webhookEventTypes.filter((t) => t !== "succeeded")) {
      const sent = await api<WebhookEventView>("POST", "/webhooks/test", {
        key: biz.secretKey,
        body: { type },
      });
      expect(sent.status, type).toBe(201);
      expect(sent.body.payload).toMatchObject({ type, test: true });
    }
    await hooks.waitForRequests(webhookEventTypes.length);
    const byType = Object.fromEntries(
      hooks.requests
        .map((r) => JSON.parse(r.body.toString()) as Record<string, unknown>)
        .map((p) => [p.type, p]),
    );
    expect(byType.incomplete).toMatchObject({ amount_remaining: 1000 });
    expect(byType.subscription_payment_failed).toMatchObject({
      failure_reason: "card_declined",
      subscription: { id: "psub_test" },
    });
    expect(byType.expired).toMatchObject({ provider: "none" });
    expect(byType.expired).not.toHaveProperty("fees");

    for (const body of [{ type: "paid" }, { type: 3 }])
      expectFieldErrors(await api("POST", "/webhooks/test", { key: biz.secretKey, body }), ["type"]);

    // The test events are in the log, and real events are not marked.
    expect((await listEvents(biz, "type=refunded")).body.data.map((e) => e.test)).toEqual([true]);
  });

  it("honours Idempotency-Key: one event for one key", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url);
    const headers = { "idempotency-key": "test-event-1" };
    const first = await api<WebhookEventView>("POST", "/webhooks/test", {
      key: biz.secretKey,
      headers,
      body: { type: "refunded" },
    });
    const again = await api<WebhookEventView>("POST", "/webhooks/test", {
      key: biz.secretKey,
      headers,
      body: { type: "refunded" },
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect((await listEvents(biz)).body.data).toHaveLength(1);
  });
});

describe("webhook token", () => {
  it("reveals the token, rotates it once per key, and both tokens sign during the overlap only", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url);
    worker();
    const before = (await api("POST", "/webhooks/test", { key: biz.secretKey })).body as WebhookEventView;
    await waitUntil(settled(before.id));
    expect((await api("GET", "/webhooks/token", { key: biz.secretKey })).body).toEqual({
      token: biz.webhookToken,
      previous_token_expires_at: null,
    });

    for (const body of [
      { overlap_seconds: -1 },
      { overlap_seconds: 604_801 },
      { overlap_seconds: 1.5 },
      { overlap_seconds: "60" },
    ]) {
      expectFieldErrors(await api("POST", "/webhooks/token/rotate", { key: biz.secretKey, body }), [
        "overlap_seconds",
      ]);
    }
    expect((await api("GET", "/webhooks/token", { key: biz.secretKey })).body).toMatchObject({
      token: biz.webhookToken,
    });

    // Default overlap: 24 hours. A retry with the same key gets the same token, rotated once.
    const headers = { "idempotency-key": "rotate-1" };
    const started = Date.now();
    const rotated = await api<{ token: string; previous_token_expires_at: string }>(
      "POST",
      "/webhooks/token/rotate",
      {
        key: biz.secretKey,
        headers,
      },
    );
    expect(rotated.status).toBe(200);
    const { token } = rotated.body;
    expect(token).toMatch(/^whsec_/);
    expect(token).not.toBe(biz.webhookToken);
    const until = Date.parse(rotated.body.previous_token_expires_at);
    expect(until - started).toBeGreaterThanOrEqual(86_400_000 - 5);
    expect(until - Date.now()).toBeLessThanOrEqual(86_400_000);
    const replay = await api("POST", "/webhooks/token/rotate", { key: biz.secretKey, headers });
    expect(replay.body).toEqual(rotated.body);
    expect((await api("GET", "/webhooks/token", { key: biz.secretKey })).body).toEqual({
      token,
      previous_token_expires_at: rotated.body.previous_token_expires_at,
    });

    // During the overlap: both tokens verify the Standard Webhooks signature; Signature is the new token's.
    const during = (await api<WebhookEventView>("POST", "/webhooks/test", { key: biz.secretKey })).body;
    await hooks.waitForRequests(2);
    const got = hooks.requests[1]!;
    expect(got.headers["webhook-id"]).toBe(during.id);
    expect(String(got.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifies(token, got)).toBe(true);
    expect(verifies(biz.webhookToken, got)).toBe(true);
    expect(got.headers.signature).toBe(hmac(token, got.body));
    await waitUntil(settled(during.id));
    const duringLog = (await getEvent(biz, during.id)).body.attempts[0]!;
    expect(duringLog.request!.headers["webhook-signature"]).toBe(got.headers["webhook-signature"]);
    expectShownAsReceived(duringLog.request, got);
    // An attempt made before the latest rotation still shows what it carried: its headers were
    // stored when it was sent, signed with the token replaced since.
    const beforeLog = (await getEvent(biz, before.id)).body.attempts[0]!;
    expectShownAsReceived(beforeLog.request, hooks.requests[0]!);
    expect(beforeLog.request!.headers.Signature).toBe(hmac(biz.webhookToken, hooks.requests[0]!.body));
    expect(beforeLog.request!.headers["webhook-signature"]).toBe(
      hooks.requests[0]!.headers["webhook-signature"],
    );
    // A row from before the headers were stored (migration 0011) falls back to computing them:
    // the tokens that signed before the latest rotation are not known, so no signature is shown.
    await testDb()
      .update(webhookDeliveries)
      .set({ requestHeaders: null })
      .where(eq(webhookDeliveries.eventId, before.id));
    const legacyLog = (await getEvent(biz, before.id)).body.attempts[0]!;
    expect(legacyLog.request!.headers_complete).toBe(false);
    expect(legacyLog.request!.headers).not.toHaveProperty("Signature");
    expect(legacyLog.request!.headers["webhook-id"]).toBe(before.id);
    expect(legacyLog.request!.headers["webhook-timestamp"]).toBe(
      hooks.requests[0]!.headers["webhook-timestamp"],
    );

    // A second rotation with a 2 s overlap: the first token stops at once, the second one after 2 s.
    const second = await api<{ token: string; previous_token_expires_at: string }>(
      "POST",
      "/webhooks/token/rotate",
      {
        key: biz.secretKey,
        body: { overlap_seconds: 2 },
      },
    );
    const newest = second.body.token;
    const overlapEnds = Date.parse(second.body.previous_token_expires_at);
    const inside = (await api<WebhookEventView>("POST", "/webhooks/test", { key: biz.secretKey })).body;
    await hooks.waitForRequests(3);
    const gotInside = hooks.requests[2]!;
    expect(gotInside.headers["webhook-id"]).toBe(inside.id);
    await waitUntil(settled(inside.id));
    const insideLog = (await getEvent(biz, inside.id)).body.attempts[0]!;
    expect(verifies(newest, gotInside)).toBe(true);
    // Within the window (the machine may be slow: judged by the attempt's recorded start).
    expect(verifies(token, gotInside)).toBe(Date.parse(insideLog.started_at) < overlapEnds);
    expect(verifies(biz.webhookToken, gotInside)).toBe(false);

    await new Promise((r) => setTimeout(r, Math.max(0, overlapEnds - Date.now()) + 50));
    expect((await api("GET", "/webhooks/token", { key: biz.secretKey })).body).toEqual({
      token: newest,
      previous_token_expires_at: null,
    });
    const afterEvent = (await api<WebhookEventView>("POST", "/webhooks/test", { key: biz.secretKey })).body;
    await hooks.waitForRequests(4);
    const gotAfter = hooks.requests[3]!;
    expect(gotAfter.headers["webhook-id"]).toBe(afterEvent.id);
    expect(String(gotAfter.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifies(newest, gotAfter)).toBe(true);
    expect(verifies(token, gotAfter)).toBe(false);
    expect(gotAfter.headers.signature).toBe(hmac(newest, gotAfter.body));
    await waitUntil(settled(afterEvent.id));
    const afterLog = (await getEvent(biz, afterEvent.id)).body.attempts[0]!;
    expectShownAsReceived(afterLog.request, gotAfter);
    expect(afterLog.request!.headers.Signature).toBe(gotAfter.headers.signature);
    // After two more rotations, the first attempts still show the signatures they carried.
    expectShownAsReceived((await getEvent(biz, during.id)).body.attempts[0]!.request, got);
    expectShownAsReceived((await getEvent(biz, inside.id)).body.attempts[0]!.request, gotInside);
  });

  it("ends the old token at once with overlap_seconds 0", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url);
    worker();
    const rotated = await api<{ token: string; previous_token_expires_at: string }>(
      "POST",
      "/webhooks/token/rotate",
      {
        key: biz.secretKey,
        body: { overlap_seconds: 0 },
      },
    );
    expect(rotated.status).toBe(200);
    expect(Date.parse(rotated.body.previous_token_expires_at)).toBeLessThanOrEqual(Date.now());
    await api("POST", "/webhooks/test", { key: biz.secretKey });
    await hooks.waitForRequests(1);
    expect(verifies(rotated.body.token, hooks.requests[0]!)).toBe(true);
    expect(verifies(biz.webhookToken, hooks.requests[0]!)).toBe(false);
  });
});

describe("webhook operations API: no input gives a 500", () => {
  it("answers every body and query with a contract answer", async () => {
    const biz = await createWebhookBusiness("https://shop.example.com/hooks");
    const anyString = fc.oneof(
      fc.string({ unit: "binary", maxLength: 30 }),
      fc.constantFrom("", " ", "\u0000", "\ud800", "x".repeat(5000), "http://\u0000/", "http://[::1", "evt_"),
    );
    const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), anyString, fc.double(), fc.integer());
    const body = fc.dictionary(
      fc.constantFrom("url", "events", "type", "since", "overlap_seconds", "resend_held", "other"),
      fc.oneof(anyValue, fc.array(anyValue, { maxLength: 4 })),
    );
    const posts = [
      "/webhooks/endpoint",
      "/webhooks/test",
      "/webhooks/token/rotate",
      "/webhooks/events/resend-failed",
      "/webhooks/events/evt_01JF3Q6R1XKX2V7T9Y0ZB4C8DM/resend",
      "/webhooks/endpoint/pause",
      "/webhooks/endpoint/resume",
    ];
    const isContractAnswer = (res: { status: number; body: unknown }) =>
      [200, 201].includes(res.status) ||
      (res.status === 400 && (isFieldMap(res.body) || isErrorMessage(res.body))) ||
      ([404, 409].includes(res.status) && isErrorMessage(res.body));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...posts), body, async (path, sent) => {
        const res = await api("POST", path, { key: biz.secretKey, body: sent });
        // A URL that passed is stored; put a public one back so later runs start alike.
        if (path === "/webhooks/endpoint" && res.status === 200)
          await api("POST", "/webhooks/endpoint", {
            key: biz.secretKey,
            body: { url: "https://shop.example.com/hooks" },
          });
        return isContractAnswer(res);
      }),
      { numRuns: fuzzRuns(150) },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom("limit", "starting_after", "type", "status", "order_id", "session_id", "x"),
          anyString,
        ),
        async (query) => {
          const qs = new URLSearchParams(query as Record<string, string>).toString();
          return isContractAnswer(await listEvents(biz, qs));
        },
      ),
      { numRuns: fuzzRuns(150) },
    );
  });
});

describe("webhook operations under concurrency (truly parallel on PostgreSQL)", () => {
  it("starts exactly one round when the same event is resent in parallel", async () => {
    const hooks = await receiver(() => ({ status: 500 }));
    const biz = await createWebhookBusiness(hooks.url);
    const w = worker();
    const event = (await payAndEmit(biz, await createSessionRow(biz)))!;
    await waitUntil(settled(event.id));
    await w.stop();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        api("POST", `/webhooks/events/${event.id}/resend`, { key: biz.secretKey }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const [row] = await testDb().select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
    expect(row!.round).toBe(2);
  });

  it("logs the signatures each attempt really carried while rotations run beside deliveries, and keeps them after", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url);
    worker();
    const sent = await Promise.all([
      ...Array.from({ length: 8 }, () =>
        api<WebhookEventView>("POST", "/webhooks/test", { key: biz.secretKey }),
      ),
      ...Array.from({ length: 3 }, () =>
        api("POST", "/webhooks/token/rotate", { key: biz.secretKey, body: { overlap_seconds: 3600 } }),
      ),
    ]);
    expect(sent.map((s) => s.status).sort()).toEqual([...Array(3).fill(200), ...Array(8).fill(201)]);
    const events = sent.filter((s) => s.status === 201).map((s) => (s.body as WebhookEventView).id);
    // Two more after every rotation: their log must be complete.
    for (let i = 0; i < 2; i++)
      events.push((await api<WebhookEventView>("POST", "/webhooks/test", { key: biz.secretKey })).body.id);
    for (const id of events) await waitUntil(settled(id));
    // Every attempt, before, between or after the rotations, shows the signatures it carried.
    for (const id of events) {
      const got = hooks.requests.find((r) => r.headers["webhook-id"] === id)!;
      const { request } = (await getEvent(biz, id)).body.attempts[0]!;
      expectShownAsReceived(request, got);
      expect(request!.headers.Signature).toBe(got.headers.signature);
      expect(request!.headers["webhook-signature"]).toBe(got.headers["webhook-signature"]);
    }
  });
});
