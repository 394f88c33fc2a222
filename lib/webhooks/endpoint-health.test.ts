import { and, eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { auditEvents, businesses, mailMessages, webhookDeliveries, webhookEvents } from "@/db/schema";
import { createUser } from "@/lib/staff/create-user";
import { startEmbeddedWorker, type EmbeddedWorker } from "@/lib/worker/embedded-worker";
import { api, testDb, uniqueName } from "@/test/helpers";
import type { WebhookDeliveryOptions } from "./delivery-options";
import { createWebhookBusiness } from "./testing/fixtures";
import { startLoopbackReceiver, type LoopbackReceiver } from "./testing/loopback-receiver";
import type { WebhookEndpointView } from "./webhook-schemas";

// Endpoint health (decision 0050) through the API, with real deliveries to a loopback receiver
// and the sandbox clock: the rules are the defaults (72 hours and 20 events).

const compressed: Partial<WebhookDeliveryOptions> = { scheduleMs: [0, 10, 10, 10], timeoutMs: 30_000, allowPrivate: true };
const day = 24 * 60 * 60;
const open: { workers: EmbeddedWorker[]; receivers: LoopbackReceiver[] } = { workers: [], receivers: [] };

afterEach(async () => {
  await Promise.all(open.workers.splice(0).map((w) => w.stop()));
  await Promise.all(open.receivers.splice(0).map((r) => r.close()));
});

function worker() {
  open.workers.push(startEmbeddedWorker(testDb(), { force: true, pollIntervalMs: 20, context: { webhooks: compressed } }));
}

/** A receiver whose answer the test switches: failing (500) or healthy (200). */
async function switchableReceiver() {
  const mode = { failing: true };
  const r = await startLoopbackReceiver(() => (mode.failing ? { status: 500, body: "down" } : { status: 200, body: "ok" }));
  open.receivers.push(r);
  return { receiver: r, mode };
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function setup() {
  const { receiver, mode } = await switchableReceiver();
  const biz = await createWebhookBusiness(receiver.url, ["succeeded"]);
  const owner = `${uniqueName("heal-owner")}@example.com`;
  await createUser(testDb(), { email: owner, password: "an owner password", businessId: biz.business.id, role: "owner" });
  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    api<T>(method, path, { key: biz.secretKey, body, headers });
  return { biz, receiver, mode, owner, call };
}

type Ctx = Awaited<ReturnType<typeof setup>>;

/** Sends `count` test events; answers their ids, oldest first. */
async function sendEvents(ctx: Ctx, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const sent = await ctx.call<{ id: string }>("POST", "/webhooks/test", {});
    expect(sent.status).toBe(201);
    ids.push(sent.body.id);
  }
  return ids;
}

async function statuses(ids: string[]): Promise<string[]> {
  const rows = await testDb().select({ id: webhookEvents.id, status: webhookEvents.status }).from(webhookEvents).where(inArray(webhookEvents.id, ids));
  return ids.map((id) => rows.find((r) => r.id === id)?.status ?? "missing");
}

const allAre = (ids: string[], status: string) => async () => (await statuses(ids)).every((s) => s === status);

async function endpoint(ctx: Ctx): Promise<WebhookEndpointView> {
  const read = await ctx.call<WebhookEndpointView>("GET", "/webhooks/endpoint");
  expect(read.status).toBe(200);
  return read.body;
}

async function disabledNotices(ctx: Ctx) {
  return testDb()
    .select({ to: mailMessages.toAddress, subject: mailMessages.subject })
    .from(mailMessages)
    .where(and(eq(mailMessages.businessId, ctx.biz.business.id), eq(mailMessages.subject, "Kassa stopped sending to your webhook endpoint")));
}

async function attemptsOf(ids: string[]) {
  return testDb().select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, ids));
}

const advance = (ctx: Ctx, seconds: number) => ctx.call("POST", "/sandbox/clock/advance", { seconds });

describe("webhook endpoints that heal", () => {
  it("disables an endpoint failing for 3 days and 20 events, tells the owner once, holds, then resends oldest first", async () => {
    const ctx = await setup();
    worker();
    const early = await sendEvents(ctx, 20);
    await waitUntil(allAre(early, "failed"));
    // 20 events, but less than 3 days: still active.
    expect(await endpoint(ctx)).toMatchObject({ state: "active", failed_events: 20, auto_disable: { after_hours: 72, after_events: 20 } });
    expect((await endpoint(ctx)).failing_since).not.toBeNull();

    expect((await advance(ctx, 3 * day)).status).toBe(200);
    const [last] = await sendEvents(ctx, 1);
    await waitUntil(allAre([last!], "failed"));
    await waitUntil(async () => (await endpoint(ctx)).state === "disabled");
    const disabled = await endpoint(ctx);
    expect(disabled.state_reason).toMatch(/Every attempt failed for more than 72 hours \(21 events/);
    expect(disabled.state_since).not.toBeNull();
    expect(await disabledNotices(ctx)).toEqual([{ to: ctx.owner, subject: "Kassa stopped sending to your webhook endpoint" }]);
    const [audit] = await testDb().select().from(auditEvents).where(and(eq(auditEvents.businessId, ctx.biz.business.id), eq(auditEvents.action, "webhook_endpoint.disable")));
    expect(audit).toMatchObject({ actorType: "system", targetId: ctx.biz.business.id });

    // Events after that are held: kept, never attempted.
    const requestsBefore = ctx.receiver.requests.length;
    const held = await sendEvents(ctx, 3);
    await waitUntil(allAre(held, "held"));
    expect(await attemptsOf(held)).toEqual([]);
    expect(ctx.receiver.requests.length).toBe(requestsBefore);
    expect((await endpoint(ctx)).held_events).toBe(3);
    // Still one notice: holding fails nothing.
    expect(await disabledNotices(ctx)).toHaveLength(1);

    // Re-enabled with resend: the held events arrive, oldest first.
    ctx.mode.failing = false;
    const resumed = await ctx.call("POST", "/webhooks/endpoint/resume", { resend_held: true }, { "idempotency-key": "resume-1" });
    expect(resumed).toMatchObject({ status: 200, body: { state: "active", resent: 3, released: 0, failed_events: 0, failing_since: null } });
    await waitUntil(allAre(held, "delivered"));
    const order = ctx.receiver.requests.map((r) => String(r.headers["webhook-id"])).filter((id) => held.includes(id));
    expect(order).toEqual(held);
    // A replay answers the same and resends nothing again.
    const replay = await ctx.call("POST", "/webhooks/endpoint/resume", { resend_held: true }, { "idempotency-key": "resume-1" });
    expect(replay.body).toEqual(resumed.body);
    const [resumeAudit] = await testDb().select().from(auditEvents).where(and(eq(auditEvents.businessId, ctx.biz.business.id), eq(auditEvents.action, "webhook_endpoint.resume")));
    expect(resumeAudit?.changes).toMatchObject({ state: { from: "disabled", to: "active" } });
  }, 180_000);

  it("does not disable with fewer than 20 events, even after 3 days; a delivered event ends the streak", async () => {
    const ctx = await setup();
    worker();
    const ids = await sendEvents(ctx, 5);
    await waitUntil(allAre(ids, "failed"));
    expect((await advance(ctx, 4 * day)).status).toBe(200);
    const more = await sendEvents(ctx, 1);
    await waitUntil(allAre(more, "failed"));
    expect(await endpoint(ctx)).toMatchObject({ state: "active", failed_events: 6 });
    ctx.mode.failing = false;
    const ok = await sendEvents(ctx, 1);
    await waitUntil(allAre(ok, "delivered"));
    expect(await endpoint(ctx)).toMatchObject({ state: "active", failed_events: 0, failing_since: null });
    expect(await disabledNotices(ctx)).toEqual([]);
  }, 120_000);

  it("pauses by hand (held, not attempted) and resumes (delivered); refuses bad input, changing nothing", async () => {
    const ctx = await setup();
    ctx.mode.failing = false;
    worker();
    const paused = await ctx.call("POST", "/webhooks/endpoint/pause", {});
    expect(paused).toMatchObject({ status: 200, body: { state: "paused", state_reason: "Paused by hand" } });
    const [pauseAudit] = await testDb().select().from(auditEvents).where(and(eq(auditEvents.businessId, ctx.biz.business.id), eq(auditEvents.action, "webhook_endpoint.pause")));
    expect(pauseAudit).toMatchObject({ actorType: "api_key" });

    // Bad input and wrong states: clear errors, nothing changes.
    expect(await ctx.call("POST", "/webhooks/endpoint/pause", {})).toMatchObject({ status: 409, body: { error: "webhook_endpoint_paused" } });
    expect(await ctx.call("POST", "/webhooks/endpoint/resume", { resend_held: "yes" })).toMatchObject({ status: 400, body: { resend_held: ["resend_held must be true or false"] } });
    expect((await api("POST", "/webhooks/endpoint/resume", { key: ctx.biz.secretKey, rawBody: "{nope" })).status).toBe(400);
    expect(await endpoint(ctx)).toMatchObject({ state: "paused" });

    const held = await sendEvents(ctx, 3);
    await waitUntil(allAre(held, "held"));
    expect(await attemptsOf(held)).toEqual([]);
    expect(ctx.receiver.requests).toHaveLength(0);

    const resumed = await ctx.call("POST", "/webhooks/endpoint/resume", {});
    expect(resumed).toMatchObject({ status: 200, body: { state: "active", state_reason: null, state_since: null, resent: 3, held_events: 0 } });
    await waitUntil(allAre(held, "delivered"));
    expect(ctx.receiver.requests.map((r) => String(r.headers["webhook-id"]))).toEqual(held);
    expect(await ctx.call("POST", "/webhooks/endpoint/resume", {})).toMatchObject({ status: 409, body: { error: "webhook_endpoint_active" } });

    // Resumed without resending: held events end failed, kept, and can be resent one by one.
    expect((await ctx.call("POST", "/webhooks/endpoint/pause", {})).status).toBe(200);
    const kept = await sendEvents(ctx, 1);
    await waitUntil(allAre(kept, "held"));
    expect(await ctx.call("POST", "/webhooks/endpoint/resume", { resend_held: false })).toMatchObject({ status: 200, body: { resent: 0, released: 1 } });
    expect(await statuses(kept)).toEqual(["failed"]);
    expect((await ctx.call("POST", `/webhooks/events/${kept[0]}/resend`, {})).status).toBe(200);
    await waitUntil(allAre(kept, "delivered"));
  }, 120_000);

  it("refuses to pause a disabled endpoint, and to resend held events with no URL (409); nothing changes", async () => {
    const ctx = await setup();
    ctx.mode.failing = false;
    // Disabled by Kassa (the state its failing-streak rule sets).
    await testDb()
      .update(businesses)
      .set({ webhookState: "disabled", webhookStateReason: "Every attempt failed", webhookStateSince: new Date().toISOString() })
      .where(eq(businesses.id, ctx.biz.business.id));
    expect(await ctx.call("POST", "/webhooks/endpoint/pause", {})).toMatchObject({ status: 409, body: { error: "webhook_endpoint_disabled" } });
    expect(await endpoint(ctx)).toMatchObject({ state: "disabled" });

    const held = await sendEvents(ctx, 1);
    worker();
    await waitUntil(allAre(held, "held"));
    expect((await ctx.call("POST", "/webhooks/endpoint", { url: null })).status).toBe(200);
    const refused = await ctx.call("POST", "/webhooks/endpoint/resume", { resend_held: true });
    expect(refused).toMatchObject({ status: 409, body: { error: "webhook_url_not_set" } });
    expect(await endpoint(ctx)).toMatchObject({ state: "disabled", held_events: 1 });
    expect(await statuses(held)).toEqual(["held"]);
    // Releasing them needs no URL.
    expect(await ctx.call("POST", "/webhooks/endpoint/resume", { resend_held: false })).toMatchObject({ status: 200, body: { state: "active", released: 1 } });
    expect(await statuses(held)).toEqual(["failed"]);
  }, 120_000);

  it("keeps a paused endpoint's event mid-retry: its remaining attempts are made after resuming", async () => {
    const ctx = await setup();
    // Attempts 15 s apart: the pause comes after the first and, even on a busy machine, well
    // before the fourth (45 s later).
    open.workers.push(startEmbeddedWorker(testDb(), { force: true, pollIntervalMs: 20, context: { webhooks: { ...compressed, scheduleMs: [0, 15_000, 15_000, 15_000] } } }));
    const [id] = await sendEvents(ctx, 1);
    await waitUntil(async () => (await attemptsOf([id!])).length >= 1);
    expect((await ctx.call("POST", "/webhooks/endpoint/pause", {})).status).toBe(200);
    await waitUntil(allAre([id!], "held"));
    const [row] = await testDb().select().from(webhookEvents).where(eq(webhookEvents.id, id!));
    expect(row!.attemptsInRound).toBeGreaterThanOrEqual(1);
    expect(row!.attemptsInRound).toBeLessThan(4);
    ctx.mode.failing = false;
    expect((await ctx.call("POST", "/webhooks/endpoint/resume", {})).status).toBe(200);
    await waitUntil(allAre([id!], "delivered"));
    const [after] = await testDb().select().from(webhookEvents).where(eq(webhookEvents.id, id!));
    // The same round, its attempts continued: never more than the schedule's 4.
    expect(after!.round).toBe(1);
    expect(after!.attemptsInRound).toBeLessThanOrEqual(4);
    expect(after!.attemptsInRound).toBeGreaterThan(row!.attemptsInRound);
  }, 120_000);
});
