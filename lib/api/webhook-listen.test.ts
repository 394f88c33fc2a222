import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { CreatedBusiness } from "@/lib/businesses/create-business";
import { helperPay, newSession, paymentsBusiness, withSandboxProviders } from "@/lib/payments/testing/payment-fixtures";
import { standardWebhooksSignature } from "@/lib/webhooks/sign-webhook";
import type { ListenPage } from "@/lib/webhooks/listen-schemas";
import type { WebhookEventView } from "@/lib/webhooks/webhook-schemas";
import { api } from "@/test/helpers";

// GET /webhooks/listen and POST /webhooks/events/{id}/listen-attempts (decision 0053).
withSandboxProviders();

const listenPage = (biz: CreatedBusiness, query = "") =>
  api<ListenPage & { error?: string }>("GET", `/webhooks/listen${query}`, { key: biz.secretKey });

/** A paid session: its `succeeded` event is written (recorded as skipped: no URL). */
async function paidSession(biz: CreatedBusiness): Promise<string> {
  const { session_id } = await newSession(biz);
  const paid = await helperPay(biz, session_id);
  expect(paid.body.status).toBe("succeeded");
  return session_id;
}

/** Pages until `count` events came, from `after` on (an event is handed out once a second old). */
async function collect(biz: CreatedBusiness, after: string, count: number) {
  const events: ListenPage["data"] = [];
  let cursor = after;
  const deadline = Date.now() + 45_000; // ends a hang only: the machine may be busy
  while (events.length < count && Date.now() < deadline) {
    const page = await listenPage(biz, `?after=${cursor}&wait=5`);
    expect(page.status).toBe(200);
    events.push(...page.body.data);
    cursor = page.body.after;
  }
  return { events, after: cursor };
}

describe("GET /webhooks/listen", () => {
  it("needs the business's secret key", async () => {
    const biz = await paymentsBusiness();
    expect((await api("GET", "/webhooks/listen")).status).toBe(401);
    expect((await api("GET", "/webhooks/listen", { key: biz.publicKey })).status).toBe(401);
  });

  it("starts after the newest event; new events appear, signed with the business's token, as they happen", async () => {
    const biz = await paymentsBusiness();
    const empty = await listenPage(biz);
    expect(empty.body).toEqual({ data: [], after: "beginning" });
    const earlier = await paidSession(biz);
    const start = await listenPage(biz);
    expect(start.body.data).toEqual([]);
    expect(start.body.after).toMatch(/^evt_/);

    // A request waiting when the event is written answers with it.
    const waiting = listenPage(biz, `?after=${start.body.after}&wait=20`);
    const sessionId = await paidSession(biz);
    const page = await waiting;
    expect(page.status).toBe(200);
    expect(page.body.data.map((e) => e.type)).toEqual(["succeeded"]);
    const [event] = page.body.data;
    const body = JSON.parse(event!.body) as { metadata: { integration_session_id: string } };
    expect(body.metadata.integration_session_id).toBe(sessionId);
    expect(body.metadata.integration_session_id).not.toBe(earlier);
    expect(event!.headers.Signature).toBe(createHmac("sha256", biz.webhookToken).update(event!.body).digest("hex"));
    expect(event!.headers["webhook-id"]).toBe(event!.id);
    const ts = Number(event!.headers["webhook-timestamp"]);
    expect(event!.headers["webhook-signature"]).toBe(standardWebhooksSignature(biz.webhookToken, event!.id, ts, event!.body));
    expect(page.body.after).toBe(event!.id);
  });

  it("resumes after a given event: the later ones, in order, none twice", async () => {
    const biz = await paymentsBusiness();
    const all = await collect(biz, "beginning", 0);
    for (let i = 0; i < 3; i++) await paidSession(biz);
    const first3 = await collect(biz, all.after, 3);
    expect(first3.events).toHaveLength(3);
    const resumed = await collect(biz, first3.events[0]!.id, 2);
    expect(resumed.events.map((e) => e.id)).toEqual(first3.events.slice(1).map((e) => e.id));
    const none = await listenPage(biz, `?after=${resumed.after}`);
    expect(none.body).toEqual({ data: [], after: resumed.after });
    const fromStart = await collect(biz, "beginning", 3);
    expect(fromStart.events.map((e) => e.id)).toEqual(first3.events.map((e) => e.id));
  });

  it("on an advanced sandbox clock, test events come in order with the others", async () => {
    const biz = await paymentsBusiness({ webhookUrl: "https://example.com/hooks" });
    const start = await listenPage(biz);
    const advanced = await api("POST", "/sandbox/clock/advance", { key: biz.secretKey, body: { seconds: 86_400 } });
    expect(advanced.status).toBe(200);
    await paidSession(biz);
    const sent = await api<{ id: string }>("POST", "/webhooks/test", { key: biz.secretKey, body: { type: "refunded" } });
    expect(sent.status).toBe(201);
    const { events } = await collect(biz, start.body.after, 2);
    expect(events.map((e) => e.type)).toEqual(["succeeded", "refunded"]);
    expect(events[1]!.id).toBe(sent.body.id);
  });

  it("bad parameters: 400 naming them, never another business's event", async () => {
    const biz = await paymentsBusiness();
    const other = await paymentsBusiness();
    await paidSession(other);
    const theirs = await collect(other, "beginning", 1);
    const foreign = await listenPage(biz, `?after=${theirs.events[0]!.id}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ after: [expect.any(String)] });
    for (const query of ["?after=nope", "?wait=26", "?wait=-1", "?limit=0"]) {
      const res = await listenPage(biz, query);
      expect(res.status, query).toBe(400);
    }
  });
});

describe("POST /webhooks/events/{id}/listen-attempts", () => {
  it("logs the local answer as a listen attempt; the event's delivery is unchanged", async () => {
    const biz = await paymentsBusiness();
    await paidSession(biz);
    const [event] = (await collect(biz, "beginning", 1)).events;
    const before = await api<WebhookEventView>("GET", `/webhooks/events/${event!.id}`, { key: biz.secretKey });
    const sent = { url: "http://user:pw@localhost:4242/hook", status_code: 500, duration_ms: 12, response_body: "boom" };
    const logged = await api("POST", `/webhooks/events/${event!.id}/listen-attempts`, { key: biz.secretKey, body: sent });
    expect(logged.status).toBe(201);
    expect(logged.body).toMatchObject({ number: 1, source: "listen", status: "failed", error: "HTTP 500" });
    const ok = await api("POST", `/webhooks/events/${event!.id}/listen-attempts`, {
      key: biz.secretKey,
      body: { url: "http://localhost:4242/hook", status_code: 200, duration_ms: 3, request_headers: event!.headers },
    });
    expect(ok.body).toMatchObject({ number: 2, source: "listen", status: "succeeded", error: null });
    const after = await api<WebhookEventView>("GET", `/webhooks/events/${event!.id}`, { key: biz.secretKey });
    expect(after.body).toMatchObject({ status: before.body.status, attempt_count: before.body.attempt_count });
    const listened = after.body.attempts.filter((a) => a.source === "listen");
    expect(listened.map((a) => [a.number, a.response?.status, a.request?.url])).toEqual([
      [1, 500, "http://localhost:4242/hook"],
      [2, 200, "http://localhost:4242/hook"],
    ]);
  });

  it("refuses bad input and unknown events, logging nothing", async () => {
    const biz = await paymentsBusiness();
    const missing = await api("POST", "/webhooks/events/evt_nope/listen-attempts", {
      key: biz.secretKey,
      body: { url: "http://localhost/h", status_code: 200, duration_ms: 1 },
    });
    expect(missing.status).toBe(404);
    await paidSession(biz);
    const [event] = (await collect(biz, "beginning", 1)).events;
    for (const body of [{}, { url: "ftp://x", duration_ms: 1 }, { url: "http://x/", duration_ms: -1 }, { url: "http://x/", duration_ms: 1, status_code: 42 }]) {
      const res = await api("POST", `/webhooks/events/${event!.id}/listen-attempts`, { key: biz.secretKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const view = await api<WebhookEventView>("GET", `/webhooks/events/${event!.id}`, { key: biz.secretKey });
    expect(view.body.attempts.filter((a) => a.source === "listen")).toEqual([]);
  });
});
