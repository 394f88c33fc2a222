import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { webhookEvents } from "@/db/schema";
import type { CreatedBusiness } from "@/lib/businesses/create-business";
import { resetEnv } from "@/lib/env";
import type { Staff, StaffRole } from "@/lib/staff/current-staff";
import { listWebhookEvents } from "@/lib/webhooks/list-webhook-events";
import { startLoopbackReceiver, type LoopbackReceiver } from "@/lib/webhooks/testing/loopback-receiver";
import { getWebhookEndpoint } from "@/lib/webhooks/webhook-endpoint";
import { revealWebhookToken } from "@/lib/webhooks/webhook-token";
import { startEmbeddedWorker, type EmbeddedWorker } from "@/lib/worker/embedded-worker";
import { createTestBusiness, testDb } from "@/test/helpers";
import {
  pauseWebhookEndpointAs,
  resumeWebhookEndpointAs,
  resendFailedWebhookEventsAs,
  resendWebhookEventAs,
  revealWebhookTokenAs,
  rotateWebhookTokenAs,
  sendTestWebhookEventAs,
  updateWebhookEndpointAs,
  urlKeepingCredentials,
} from "./webhook-actions";

beforeAll(() => {
  process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
  resetEnv();
});
afterAll(() => {
  delete process.env.ALLOW_PRIVATE_WEBHOOK_URLS;
  resetEnv();
});

const open: { workers: EmbeddedWorker[]; receivers: LoopbackReceiver[] } = { workers: [], receivers: [] };
afterEach(async () => {
  await Promise.all(open.workers.splice(0).map((w) => w.stop()));
  await Promise.all(open.receivers.splice(0).map((r) => r.close()));
});

function staffOf(biz: CreatedBusiness, role: StaffRole): Staff {
  return {
    userId: `usr_${role}`,
    email: `${role}@example.com`,
    isAdmin: role === "admin",
    businessId: biz.business.id,
    role,
    memberships: [{ businessId: biz.business.id, businessName: biz.business.name, mode: "sandbox", role }],
  };
}

// The bound only ends a hang: on a loaded 2-core machine a database round trip can take seconds.
async function waitUntil(check: () => Promise<boolean>, timeoutMs = 45_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}
const statusOf = async (id: string) => (await testDb().select().from(webhookEvents).where(eq(webhookEvents.id, id)))[0]!.status;

describe("webhook settings from the dashboard", () => {
  it("a manager sets the URL and the event kinds; bad URLs and kinds are refused field by field and change nothing", async () => {
    const biz = await createTestBusiness({ webhookUrl: null, webhookEvents: ["succeeded"] });
    const manager = staffOf(biz, "manager");
    const saved = await updateWebhookEndpointAs(testDb(), manager, {
      business: biz.business.id,
      url: " https://shop.example.com/hooks ",
      events: ["refunded", "succeeded"],
    });
    expect(saved).toMatchObject({ ok: true, data: { url: "https://shop.example.com/hooks", events: ["succeeded", "refunded"] } });

    const badUrl = await updateWebhookEndpointAs(testDb(), manager, { business: biz.business.id, url: "ftp://shop.example.com", events: [] });
    expect(badUrl).toMatchObject({ ok: false, error: "validation_failed" });
    expect(Object.keys((badUrl as { fields: object }).fields)).toEqual(["url"]);
    const badKind = await updateWebhookEndpointAs(testDb(), manager, { business: biz.business.id, url: "", events: ["paid"] });
    expect(badKind).toMatchObject({ ok: false, error: "validation_failed" });
    expect(await getWebhookEndpoint(testDb(), biz.business.id)).toMatchObject({ url: "https://shop.example.com/hooks", events: ["succeeded", "refunded"] });

    // An empty URL stops sending.
    expect(await updateWebhookEndpointAs(testDb(), manager, { business: biz.business.id, url: "", events: [] })).toMatchObject({
      ok: true,
      data: { url: null, events: [] },
    });
    // Nothing to send a test to now: the API's conflict.
    expect(await sendTestWebhookEventAs(testDb(), manager, { business: biz.business.id, type: "succeeded" })).toMatchObject({
      ok: false,
      error: "webhook_url_not_set",
    });
  });

  it("a URL's user:password is never sent to the browser, and saving the form as shown keeps it", async () => {
    const secretUrl = "https://hook:s3cret@shop.example.com/hooks";
    const biz = await createTestBusiness({ webhookUrl: null, webhookEvents: ["succeeded"] });
    const owner = staffOf(biz, "owner");
    const form = (url: string) => ({ business: biz.business.id, url, events: ["succeeded"] });
    const saved = await updateWebhookEndpointAs(testDb(), owner, form(secretUrl));
    expect(saved).toMatchObject({ ok: true, data: { url: "https://shop.example.com/hooks" } });
    expect(JSON.stringify(saved)).not.toContain("s3cret");
    // The form shows the URL without them; sent back unchanged, the stored credentials stay.
    expect(await updateWebhookEndpointAs(testDb(), owner, form("https://shop.example.com/hooks"))).toMatchObject({ ok: true });
    expect((await getWebhookEndpoint(testDb(), biz.business.id)).url).toBe(secretUrl);
    // Another URL, or new credentials, replace them.
    await updateWebhookEndpointAs(testDb(), owner, form("https://new:pw@shop.example.com/hooks"));
    expect((await getWebhookEndpoint(testDb(), biz.business.id)).url).toBe("https://new:pw@shop.example.com/hooks");
    await updateWebhookEndpointAs(testDb(), owner, form("https://other.example.com/hooks"));
    expect((await getWebhookEndpoint(testDb(), biz.business.id)).url).toBe("https://other.example.com/hooks");
  });

  it("urlKeepingCredentials: only the same URL, as shown, keeps the stored credentials", () => {
    expect(urlKeepingCredentials("https://a.example/x", "https://u:p@a.example/x")).toBe("https://u:p@a.example/x");
    expect(urlKeepingCredentials("https://a.example/y", "https://u:p@a.example/x")).toBe("https://a.example/y");
    expect(urlKeepingCredentials("https://a.example/x", "https://a.example/x")).toBe("https://a.example/x");
    expect(urlKeepingCredentials("not a url", "https://u:p@a.example/x")).toBe("not a url");
  });

  it("reveals the token on request and rotates it with the chosen overlap", async () => {
    const biz = await createTestBusiness();
    const owner = staffOf(biz, "owner");
    const form = { business: biz.business.id };
    const shown = await revealWebhookTokenAs(testDb(), owner, form);
    expect(shown).toMatchObject({ ok: true, data: await revealWebhookToken(testDb(), biz.business.id) });
    const rotated = await rotateWebhookTokenAs(testDb(), owner, { ...form, overlap: "3600" });
    expect(rotated.ok).toBe(true);
    const token = (rotated as { data: string }).data;
    expect(token).not.toBe((shown as { data: string }).data);
    expect(await revealWebhookToken(testDb(), biz.business.id)).toBe(token);
    expect((rotated as { message: string }).message).toMatch(/signed with both tokens until/);
    expect(await rotateWebhookTokenAs(testDb(), owner, { ...form, overlap: "5" })).toMatchObject({ ok: false, error: "validation_failed" });
    expect(await revealWebhookToken(testDb(), biz.business.id)).toBe(token);
  });

  it("sends a test event, logs its failed attempts, resends it and resends every failure since a time", async () => {
    const receiver = await startLoopbackReceiver(() => ({ status: 500, body: "down" }));
    open.receivers.push(receiver);
    const biz = await createTestBusiness({ webhookUrl: receiver.url, webhookEvents: ["succeeded"] });
    const w = startEmbeddedWorker(testDb(), { force: true, pollIntervalMs: 20, context: { webhooks: { scheduleMs: [0, 50], timeoutMs: 1000, allowPrivate: true } } });
    open.workers.push(w);
    const manager = staffOf(biz, "manager");
    const form = { business: biz.business.id };

    const sent = await sendTestWebhookEventAs(testDb(), manager, { ...form, type: "refunded" });
    expect(sent).toMatchObject({ ok: true });
    const eventId = (sent as { data: string }).data;
    // Still being delivered: a resend is refused with the API's conflict.
    expect(await resendWebhookEventAs(testDb(), manager, { ...form, event: eventId })).toMatchObject({ ok: false, error: "webhook_event_pending" });
    await waitUntil(async () => (await statusOf(eventId)) === "failed");
    const [logged] = (await listWebhookEvents(testDb(), biz.business.id)).data;
    expect(logged).toMatchObject({ id: eventId, type: "refunded", test: true, status: "failed" });
    expect(logged!.attempts.length).toBeGreaterThanOrEqual(2);
    // Each attempt is logged with its request; the receiver's 500 shows (on a busy machine an
    // attempt may instead time out before the answer, logged without a response).
    for (const attempt of logged!.attempts) expect(attempt).toMatchObject({ request: { method: "POST", url: receiver.url } });
    expect(logged!.attempts).toContainEqual(expect.objectContaining({ response: expect.objectContaining({ status: 500, body: "down" }) }));

    expect(await resendWebhookEventAs(testDb(), manager, { ...form, event: eventId })).toMatchObject({ ok: true });
    await waitUntil(async () => (await statusOf(eventId)) === "failed");
    const since = new Date(Date.now() - 60 * 60_000).toISOString().slice(0, 16); // datetime-local, UTC
    expect(await resendFailedWebhookEventsAs(testDb(), manager, { ...form, since })).toMatchObject({ ok: true, data: 1 });
    await waitUntil(async () => (await statusOf(eventId)) === "failed");
    expect((await listWebhookEvents(testDb(), biz.business.id)).data[0]!.resend_count).toBe(2);
    expect(await resendFailedWebhookEventsAs(testDb(), manager, { ...form, since: "yesterday" })).toMatchObject({ ok: false, error: "validation_failed" });
    expect(await resendFailedWebhookEventsAs(testDb(), manager, { ...form, since: new Date(Date.now() + 3_600_000).toISOString() })).toMatchObject({
      ok: true,
      data: 0,
    });
  });

  it("a manager of another business cannot read the token, rotate it, change settings or resend", async () => {
    const biz = await createTestBusiness({ webhookUrl: "https://shop.example.com/hooks" });
    const other = await createTestBusiness();
    const token = await revealWebhookToken(testDb(), biz.business.id);
    const intruder = staffOf(other, "manager");
    const victim = { business: biz.business.id };
    for (const result of [
      await revealWebhookTokenAs(testDb(), intruder, victim),
      await rotateWebhookTokenAs(testDb(), intruder, { ...victim, overlap: 0 }),
      await updateWebhookEndpointAs(testDb(), intruder, { ...victim, url: "https://evil.example.com", events: [] }),
      await sendTestWebhookEventAs(testDb(), intruder, { ...victim, type: "succeeded" }),
      await resendFailedWebhookEventsAs(testDb(), intruder, { ...victim, since: "2026-01-01T00:00" }),
    ]) {
      expect(result.ok).toBe(false);
      expect(["forbidden", "business_changed"]).toContain((result as { error: string }).error);
      expect(result).not.toHaveProperty("data");
    }
    expect(await revealWebhookToken(testDb(), biz.business.id)).toBe(token);
    expect(await getWebhookEndpoint(testDb(), biz.business.id)).toMatchObject({ url: "https://shop.example.com/hooks" });

    // Its own business named, another business's event id: unknown.
    const sent = await sendTestWebhookEventAs(testDb(), staffOf(biz, "owner"), { ...victim, type: "succeeded" });
    expect(sent.ok).toBe(true);
    expect(await resendWebhookEventAs(testDb(), intruder, { business: other.business.id, event: (sent as { data: string }).data })).toMatchObject({
      ok: false,
      error: "webhook_event_not_found",
    });
  });

  it("a manager pauses the endpoint (events held) and resumes it, choosing to send the held events; bad choices change nothing", async () => {
    const hooks = await startLoopbackReceiver();
    open.receivers.push(hooks);
    const biz = await createTestBusiness({ webhookUrl: hooks.url });
    const manager = staffOf(biz, "manager");
    open.workers.push(startEmbeddedWorker(testDb(), { force: true, pollIntervalMs: 20, context: { webhooks: { allowPrivate: true, scheduleMs: [0, 10, 10, 10] } } }));
    expect(await pauseWebhookEndpointAs(testDb(), manager, { business: biz.business.id })).toMatchObject({ ok: true });
    expect(await pauseWebhookEndpointAs(testDb(), manager, { business: biz.business.id })).toMatchObject({ ok: false, error: "webhook_endpoint_paused" });
    const sent = await sendTestWebhookEventAs(testDb(), manager, { business: biz.business.id, type: "succeeded" });
    const eventId = (sent as { data: string }).data;
    await waitUntil(async () => (await statusOf(eventId)) === "held");
    expect(hooks.requests).toHaveLength(0);
    const bad = await resumeWebhookEndpointAs(testDb(), manager, { business: biz.business.id, held: "all-at-once" });
    expect(bad).toMatchObject({ ok: false, fields: { held: ["Choose whether to send the held events"] } });
    expect(await getWebhookEndpoint(testDb(), biz.business.id)).toMatchObject({ state: "paused", held_events: 1 });
    expect(await resumeWebhookEndpointAs(testDb(), manager, { business: biz.business.id, held: "resend" })).toMatchObject({
      ok: true,
      message: "The endpoint is active again. 1 held event is being sent, oldest first.",
    });
    await waitUntil(async () => (await statusOf(eventId)) === "delivered");
    expect(await getWebhookEndpoint(testDb(), biz.business.id)).toMatchObject({ state: "active", held_events: 0 });
  });
});
