import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { businesses, jobs, payments, webhookDeliveries, webhookEvents } from "@/db/schema";
import { advanceSandboxClock } from "@/lib/businesses/advance-sandbox-clock";
import { resetEnv } from "@/lib/env";
import { ClockWorkPendingError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/respond";
import { defaultJobContext } from "@/lib/job-context";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import { runDueJobs } from "@/lib/jobs/run-due-jobs";
import { startSandboxProviders } from "@/lib/providers/start-sandbox-providers";
import { ensureSandboxTestClock } from "@/lib/providers/stripe/ensure-sandbox-test-clock";
import { sandboxStripeKey, stopSandboxEmulator } from "@/lib/providers/stripe/sandbox-emulator";
import { expireSessionJob } from "@/lib/sessions/expire-session";
import { scheduleSessionExpiry } from "@/lib/sessions/schedule-session-expiry";
import { parseDbTime } from "@/lib/time";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";
import { cardPayment, createSessionRow, createWebhookBusiness } from "@/lib/webhooks/testing/fixtures";
import {
  startLoopbackReceiver,
  type LoopbackReceiver,
  type Reply,
} from "@/lib/webhooks/testing/loopback-receiver";
import { startEmbeddedWorker } from "@/lib/worker/embedded-worker";
import { sdkFor } from "@kassa/stripe-emulator/testing";
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
    // The new time is real time at some instant of the call plus the offset: bounded by the call's
    // start and end, however long a busy machine makes it.
    const advancedBy = async (key: string, seconds: number, offsetMs: number) => {
      const before = Date.now();
      const res = await advance(key, { seconds });
      const after = Date.now();
      expect(res.status).toBe(200);
      expect(res.body.now).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      const now = Date.parse(res.body.now);
      expect(now).toBeGreaterThanOrEqual(before + offsetMs - 1);
      expect(now).toBeLessThanOrEqual(after + offsetMs);
    };
    const biz = await createTestBusiness();
    await advancedBy(biz.secretKey, 3600, 3600_000);
    await advancedBy(biz.secretKey, 5 * 365 * 86400, 3600_000 + 5 * 365 * 86400_000);
    // Another business's clock is untouched.
    const other = await createTestBusiness();
    await advancedBy(other.secretKey, 1, 1000);
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

  it("delivers webhook retries by the business's clock: 4 attempts at 0, 1 min, 10 min, 1 h, never a 5th", async () => {
    const hooks = await receiver(() => ({ status: 500 }));
    const biz = await createWebhookBusiness(hooks.url, ["succeeded"]);
    const session = await createSessionRow(biz);
    // The embedded worker makes the first attempt at once, as in the server.
    const worker = startEmbeddedWorker(testDb(), { force: true, pollIntervalMs: 20 });
    try {
      const event = await transactionWithJobs(testDb(), (tx) =>
        emitWebhookEvent(tx, { business: biz.business, session, type: "succeeded" }),
      );
      await hooks.waitForRequests(1);
      const attempts = async () =>
        (
          await testDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event!.id))
        ).filter((d) => d.outcome !== "in_flight").length;
      await vi.waitFor(async () => expect(await attempts()).toBe(1));

      // Half a minute is not enough; the minute is (each advance returns once the attempt is made).
      expect((await advance(biz.secretKey, { seconds: 30 })).body.jobs_run).toBe(0);
      expect(hooks.requests).toHaveLength(1);
      for (const [seconds, made] of [
        [30, 2],
        [600, 3],
        [3600, 4],
      ] as const) {
        const res = await advance(biz.secretKey, { seconds });
        expect(res.status).toBe(200);
        expect(hooks.requests).toHaveLength(made);
        expect(await attempts()).toBe(made);
      }
      const [failed] = await testDb().select().from(webhookEvents).where(eq(webhookEvents.id, event!.id));
      expect(failed).toMatchObject({ status: "failed", attemptCount: 4, nextAttemptAt: null });

      // A week later (the session's expiry ran meanwhile: `expired` is not enabled) still 4.
      expect((await advance(biz.secretKey, { seconds: 7 * 86400 })).status).toBe(200);
      expect(hooks.requests).toHaveLength(4);
      expect(await attempts()).toBe(4);
      expect(new Set(hooks.requests.map((r) => r.headers["webhook-id"]))).toEqual(new Set([event!.id]));
    } finally {
      await worker.stop();
    }
  });

  it("keeps a live business's retries on real time (its clock never moves)", async () => {
    const hooks = await receiver(() => ({ status: 500 }));
    const biz = await createTestBusiness({
      webhookUrl: hooks.url,
      webhookEvents: ["succeeded"],
      mode: "live",
    });
    const session = await createSessionRow(biz);
    const event = await transactionWithJobs(testDb(), (tx) =>
      emitWebhookEvent(tx, { business: biz.business, session, type: "succeeded" }),
    );
    const before = Date.now();
    await runDueJobs(testDb(), { businessId: biz.business.id, ctx: defaultJobContext() });
    const after = Date.now();
    expect(hooks.requests).toHaveLength(1);
    const [job] = await testDb()
      .select()
      .from(jobs)
      .where(and(eq(jobs.businessId, biz.business.id), eq(jobs.kind, "deliver_webhook")));
    const [pending] = await testDb().select().from(webhookEvents).where(eq(webhookEvents.id, event!.id));
    // Due a real minute after the attempt (made during the run), and the event says the same.
    const due = parseDbTime(job!.runAt).getTime();
    expect(due).toBeGreaterThanOrEqual(before + 60_000 - 1);
    expect(due).toBeLessThanOrEqual(after + 60_000 + 1);
    expect(
      Math.abs(parseDbTime(pending!.nextAttemptAt!).getTime() - parseDbTime(job!.runAt).getTime()),
    ).toBeLessThan(1000);
  });
});

describe("the business's Stripe test clock", () => {
  afterAll(stopSandboxEmulator);

  it("is created on first need at the business's time, and every advance moves it there too", async () => {
    const { emulator } = await startSandboxProviders({ webhookRetryDelaysMs: [] });
    const biz = await createTestBusiness();
    const clockOf = async () =>
      (await testDb().select().from(businesses).where(eq(businesses.id, biz.business.id)))[0]!
        .stripeTestClockId;
    // A business without one advances all the same.
    expect((await advance(biz.secretKey, { seconds: 60 })).status).toBe(200);
    expect(await clockOf()).toBeNull();

    const beforeClock = Date.now();
    const clockId = await ensureSandboxTestClock(testDb(), biz.business);
    const afterClock = Date.now();
    expect(await ensureSandboxTestClock(testDb(), biz.business)).toBe(clockId);
    expect(await clockOf()).toBe(clockId);
    const stripe = sdkFor(emulator, sandboxStripeKey(biz.business.id));
    const created = await stripe.testHelpers.testClocks.retrieve(clockId);
    expect(created.frozen_time).toBeGreaterThanOrEqual(Math.floor(beforeClock / 1000) + 60);
    expect(created.frozen_time).toBeLessThanOrEqual(Math.ceil(afterClock / 1000) + 60);

    // A monthly subscription of a customer on the clock renews within the advance.
    const customer = await stripe.customers.create({ test_clock: clockId, payment_method: "pm_card_visa" });
    const method = (await stripe.paymentMethods.list({ customer: customer.id })).data[0]!.id;
    const product = await stripe.products.create({ name: "Plan" });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      default_payment_method: method,
      items: [
        {
          price_data: {
            currency: "usd",
            product: product.id,
            unit_amount: 1000,
            recurring: { interval: "month" },
          },
        },
      ],
    });
    const res = await advance(biz.secretKey, { seconds: 32 * 86400 });
    expect(res.status).toBe(200);
    const moved = await stripe.testHelpers.testClocks.retrieve(clockId);
    expect(moved.status).toBe("ready");
    expect(moved.frozen_time).toBe(Math.floor(Date.parse(res.body.now) / 1000));
    const invoices = await stripe.invoices.list({ subscription: subscription.id });
    expect(invoices.data.map((i) => i.status)).toEqual(["paid", "paid"]);
  });

  it("cannot move: 502 in the contract's shape, and the business's clock and the test clock stay where they were", async () => {
    const { emulator } = await startSandboxProviders({ webhookRetryDelaysMs: [] });
    const biz = await createTestBusiness();
    const key = sandboxStripeKey(biz.business.id);
    const clockId = await ensureSandboxTestClock(testDb(), biz.business);
    const stripe = sdkFor(emulator, key);
    const before = await stripe.testHelpers.testClocks.retrieve(clockId);
    const offset = async () =>
      (await testDb().select().from(businesses).where(eq(businesses.id, biz.business.id)))[0]!.clockOffsetMs;
    emulator.setUnreachable(true, key);
    const failed = await advance(biz.secretKey, { seconds: 86400 });
    emulator.setUnreachable(false, key);
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ error: "provider_error", message: expect.stringMatching(/test clock did not move.*unchanged/) });
    expect(await offset()).toBe(0);
    expect((await stripe.testHelpers.testClocks.retrieve(clockId)).frozen_time).toBe(before.frozen_time);
    // Once it can, the advance moves both by the seconds asked, not more.
    const moved = await advance(biz.secretKey, { seconds: 60 });
    expect(moved.status).toBe(200);
    expect(await offset()).toBe(60_000);
    expect((await stripe.testHelpers.testClocks.retrieve(clockId)).frozen_time).toBe(Math.floor(Date.parse(moved.body.now) / 1000));
  });

  it("is not shared: another business's advance leaves it alone", async () => {
    const { emulator } = await startSandboxProviders({ webhookRetryDelaysMs: [] });
    const biz = await createTestBusiness();
    const other = await createTestBusiness();
    const clockId = await ensureSandboxTestClock(testDb(), biz.business);
    const stripe = sdkFor(emulator, sandboxStripeKey(biz.business.id));
    const before = await stripe.testHelpers.testClocks.retrieve(clockId);
    expect((await advance(other.secretKey, { seconds: 86400 })).status).toBe(200);
    expect((await stripe.testHelpers.testClocks.retrieve(clockId)).frozen_time).toBe(before.frozen_time);
  });
});

describe("work still due at the bound", () => {
  it("answers 503 clock_work_pending naming it, with the clock moved and the business unmarked", async () => {
    await startSandboxProviders({ webhookRetryDelaysMs: [] });
    const biz = await createTestBusiness();
    // A job of the business held by another worker (a lease it keeps) stays due past the bound.
    await testDb()
      .insert(jobs)
      .values({
        id: `job_held_${biz.business.id}`,
        kind: "expire_session",
        businessId: biz.business.id,
        payload: { sessionId: "cs_none" },
        status: "running",
        runAt: new Date(Date.now() - 1000).toISOString(),
        lockedBy: "another-worker",
        lockToken: "held",
        lockedUntil: new Date(Date.now() + 600_000).toISOString(),
      });
    const failure = await advanceSandboxClock(testDb(), biz.business, 60, defaultJobContext(), 1500).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ClockWorkPendingError);
    const answer = errorResponse(failure)!;
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("5");
    expect(await answer.json()).toEqual({
      error: "clock_work_pending",
      message: expect.stringMatching(/still running after 1\.5 s: 1 expire_session\b.*background/),
    });
    const [row] = await testDb().select().from(businesses).where(eq(businesses.id, biz.business.id));
    expect(row!.clockOffsetMs).toBe(60_000);
    expect(row!.clockAdvanceUntil).toBeNull();
  });
});
