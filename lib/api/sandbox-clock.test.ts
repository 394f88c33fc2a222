import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { jobs, payments, webhookEvents } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { defaultJobContext } from "@/lib/jobs/context";
import { parseDbTime } from "@/lib/time";
import { expireSessionJob, scheduleSessionExpiry } from "@/lib/jobs/session-expiry";
import { cardPayment, createSessionRow, createWebhookBusiness } from "@/lib/webhooks/testing/fixtures";
import {
  startLoopbackReceiver,
  type LoopbackReceiver,
  type Reply,
} from "@/lib/webhooks/testing/loopback-receiver";
import { expectFieldErrors } from "@/test/api-assertions";
import { api, createTestBusiness, testDb } from "@/test/helpers";

// The clock route runs jobs with the environment's settings: let them reach the loopback receiver.
beforeAll(() => {
  process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
  resetEnv();
});
afterAll(() => {
  delete process.env.ALLOW_PRIVATE_WEBHOOK_URLS;
  resetEnv();
});

const receivers: LoopbackReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
async function receiver(reply?: (index: number) => Reply) {
  const r = await startLoopbackReceiver(reply ? (_req, index) => reply(index) : undefined);
  receivers.push(r);
  return r;
}

const advance = (key: string | null, body: unknown) =>
  api<{ now: string; jobs_run: number }>("POST", "/sandbox/clock/advance", { key, body });

describe("POST /sandbox/clock/advance", () => {
  it("answers 401 to anything but a sandbox business's secret key", async () => {
    const sandbox = await createTestBusiness();
    const live = await createTestBusiness({ mode: "live" });
    for (const key of [null, "sk_test_nope", sandbox.publicKey, live.secretKey]) {
      const res = await advance(key, { seconds: 60 });
      expect(res.status, String(key)).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized" });
    }
  });

  it("answers 400 with the field body for an invalid `seconds`", async () => {
    const biz = await createTestBusiness();
    for (const body of [
      {},
      { seconds: 0 },
      { seconds: -5 },
      { seconds: 1.5 },
      { seconds: "60" },
      { seconds: null },
      { seconds: 5 * 365 * 86400 + 1 },
    ])
      expectFieldErrors(await advance(biz.secretKey, body), ["seconds"]);
    const res = await api("POST", "/sandbox/clock/advance", { key: biz.secretKey, rawBody: "[1]" });
    expect(res.status).toBe(400);
  });

  it("moves the business's clock and answers with its new time", async () => {
    const biz = await createTestBusiness();
    const first = await advance(biz.secretKey, { seconds: 3600 });
    expect(first.status).toBe(200);
    expect(first.body.now).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(Math.abs(Date.parse(first.body.now) - (Date.now() + 3600_000))).toBeLessThan(5000);
    const second = await advance(biz.secretKey, { seconds: 5 * 365 * 86400 });
    expect(
      Math.abs(Date.parse(second.body.now) - (Date.now() + 3600_000 + 5 * 365 * 86400_000)),
    ).toBeLessThan(5000);
    // Another business's clock is untouched.
    const other = await createTestBusiness();
    const third = await advance(other.secretKey, { seconds: 1 });
    expect(Math.abs(Date.parse(third.body.now) - (Date.now() + 1000))).toBeLessThan(5000);
  });

  it("expires an unpaid session at 24 h and delivers `expired` before answering", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url, ["succeeded", "expired"]);
    const session = await createSessionRow(biz, { metadata: { ref: "r-9" } });
    await scheduleSessionExpiry(testDb(), session);
    await scheduleSessionExpiry(testDb(), session); // twice is harmless

    const early = await advance(biz.secretKey, { seconds: 86_000 });
    expect(early.body.jobs_run).toBe(0);
    expect((await api("GET", `/payment/${session.id}`, { key: biz.secretKey })).body.status).toBeNull();

    const due = await advance(biz.secretKey, { seconds: 600 });
    expect(due.status).toBe(200);
    expect(due.body.jobs_run).toBe(2); // the expiry, then its webhook
    expect(hooks.requests).toHaveLength(1);
    expect(JSON.parse(hooks.requests[0]!.body.toString())).toEqual({
      amount: 2500,
      currency: "USD",
      metadata: { ref: "r-9", integration_session_id: session.id },
      type: "expired",
      provider: "none",
      order_id: session.orderId,
      items: session.items,
    });
    const read = await api("GET", `/payment/${session.id}`, { key: biz.secretKey });
    expect(read.body).toMatchObject({ status: "expired", amount: 2500 });
    const [payment] = await testDb().select().from(payments).where(eq(payments.sessionId, session.id));
    expect(payment).toMatchObject({ status: "expired", amount: 2500 });

    // Running the job again changes nothing.
    const [job] = await testDb()
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `expire_session:${session.id}`));
    expect(await expireSessionJob(testDb(), job!, defaultJobContext())).toMatchObject({ status: "done" });
    expect(await testDb().select().from(payments).where(eq(payments.sessionId, session.id))).toHaveLength(1);
    expect(
      await testDb().select().from(webhookEvents).where(eq(webhookEvents.sessionId, session.id)),
    ).toHaveLength(1);
  });

  it("leaves a paid session alone", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url, ["expired"]);
    const session = await createSessionRow(biz);
    await testDb().transaction(async (tx) => {
      await tx.insert(payments).values(cardPayment(session));
      await scheduleSessionExpiry(tx, session);
    });
    const res = await advance(biz.secretKey, { seconds: 2 * 86400 });
    expect(res.body.jobs_run).toBe(1);
    expect(hooks.requests).toHaveLength(0);
    const [payment] = await testDb().select().from(payments).where(eq(payments.sessionId, session.id));
    expect(payment!.status).toBe("succeeded");
  });

  it("keeps webhook retries on real time", async () => {
    const hooks = await receiver(() => ({ status: 500 }));
    const biz = await createWebhookBusiness(hooks.url, ["expired"]);
    const session = await createSessionRow(biz);
    await scheduleSessionExpiry(testDb(), session);
    const res = await advance(biz.secretKey, { seconds: 3 * 86400 });
    expect(res.body.jobs_run).toBe(2);
    expect(hooks.requests).toHaveLength(1); // the first attempt; the retry is a real minute away
    const [event] = await testDb()
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.businessId, biz.business.id), eq(webhookEvents.type, "expired")));
    expect(event).toMatchObject({ status: "pending", attemptCount: 1 });
    expect(parseDbTime(event!.nextAttemptAt!).getTime() - Date.now()).toBeGreaterThan(50_000);
    expect((await advance(biz.secretKey, { seconds: 3600 })).body.jobs_run).toBe(0);
  });
});
