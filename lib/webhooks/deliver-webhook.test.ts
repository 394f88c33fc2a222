import { createHmac } from "node:crypto";
import net from "node:net";
import { and, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jobs, mailMessages, payments, webhookEvents, type WebhookEvent } from "@/db/schema";
import { createUser } from "@/lib/staff/create-user";
import { defaultJobContext } from "@/lib/job-context";
import { claimJobs, type ClaimedJob } from "@/lib/jobs/claim-jobs";
import { executeClaimedJob, type FinishedJob } from "@/lib/jobs/run-job";
import { startEmbeddedWorker, type EmbeddedWorker } from "@/lib/worker/embedded-worker";
import { testDb, uniqueName } from "@/test/helpers";
import type { WebhookDeliveryOptions } from "./delivery-options";
import { getWebhookEvent, listWebhookEvents } from "./list-webhook-events";
import { resendFailedWebhookEvents, resendWebhookEvent } from "./resend-webhook-events";
import { createSessionRow, createWebhookBusiness, payAndEmit } from "./testing/fixtures";
import { startLoopbackReceiver, type LoopbackReceiver, type Reply } from "./testing/loopback-receiver";
import { rotateWebhookToken } from "./webhook-token";

// The timeout is far above any answer's time even on a starved machine: a timed-out attempt
// (which did arrive) is rightly made again, and these tests count attempts.
const compressed: Partial<WebhookDeliveryOptions> = {
  scheduleMs: [0, 150, 300, 450],
  timeoutMs: 30_000,
  allowPrivate: true,
};

const open: { workers: EmbeddedWorker[]; receivers: LoopbackReceiver[] } = { workers: [], receivers: [] };

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(open.workers.splice(0).map((w) => w.stop()));
  await Promise.all(open.receivers.splice(0).map((r) => r.close()));
});

function worker(
  webhooks: Partial<WebhookDeliveryOptions> = compressed,
  pollIntervalMs: number | "default" = 20,
) {
  const w = startEmbeddedWorker(testDb(), {
    force: true,
    pollIntervalMs: pollIntervalMs === "default" ? undefined : pollIntervalMs,
    context: { webhooks },
  });
  open.workers.push(w);
  return w;
}

async function receiver(reply?: (index: number) => Reply) {
  const r = await startLoopbackReceiver(reply ? (_req, index) => reply(index) : undefined);
  open.receivers.push(r);
  return r;
}

async function eventRow(id: string) {
  const [row] = await testDb().select().from(webhookEvents).where(eq(webhookEvents.id, id));
  return row!;
}

// The bound only ends a hang: on a loaded 2-core machine a database round trip can take seconds.
async function waitUntil(check: () => Promise<boolean>, timeoutMs = 50_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const settled = async (id: string) => (await eventRow(id)).status !== "pending";

describe("outbound webhooks", () => {
  it("delivers a correctly signed succeeded webhook at once: the payment's commit wakes the worker", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url, ["succeeded"]);
    const session = await createSessionRow(biz, { metadata: { cart: "c-1", vip: true } });
    // A poll a minute apart: only the commit's wake-up can deliver within the wait below. (How
    // fast is measured by `npm run bench`, commit to first attempt, not by a timed test.)
    const w = worker(compressed, 60_000);
    // Its first, idle claim has begun (a state, not a guessed sleep); the wait stays below the poll.
    await vi.waitFor(() => expect(w.stats.claims).toBeGreaterThan(0), { timeout: 30_000 });
    const event = await payAndEmit(biz, session);
    await hooks.waitForRequests(1, 45_000);

    const got = hooks.requests[0]!;
    expect(got.method).toBe("POST");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers.signature).toBe(createHmac("sha256", biz.webhookToken).update(got.body).digest("hex"));
    const verified = new Webhook(biz.webhookToken).verify(got.body.toString(), {
      "webhook-id": String(got.headers["webhook-id"]),
      "webhook-timestamp": String(got.headers["webhook-timestamp"]),
      "webhook-signature": String(got.headers["webhook-signature"]),
    });
    expect(got.headers["webhook-id"]).toBe(event!.id);
    expect(verified).toEqual({
      amount: 2500,
      currency: "USD",
      fees: 103,
      metadata: { cart: "c-1", vip: true, integration_session_id: session.id },
      type: "succeeded",
      provider: "stripe",
      order_id: session.orderId,
      items: session.items,
      payment_method: "credit",
      customer: {
        name: "Ada Lovelace",
        email: "ada@example.com",
        address: { line1: "1 Main St", city: "London", postal_code: "N1", country: "GB" },
      },
    });
    // The exact bytes stored are the bytes sent.
    expect(got.body.toString()).toBe((await eventRow(event!.id)).body);
    await waitUntil(() => settled(event!.id));
    expect(await eventRow(event!.id)).toMatchObject({ status: "delivered", attemptCount: 1 });
  });

  it("finishes a delivered attempt's job in its record, only while the job's lock token is still the claimer's", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url);
    const context = defaultJobContext({ webhooks: compressed });
    const claim = async () => {
      const [job] = await claimJobs(testDb(), { workerId: "w1", leaseMs: 60_000, limit: 1, kinds: ["deliver_webhook"], businessId: biz.business.id });
      return job!;
    };
    const jobRow = async (id: string) => (await testDb().select().from(jobs).where(eq(jobs.id, id)))[0]!;

    const first = await payAndEmit(biz, await createSessionRow(biz));
    const job = await claim();
    expect(job.payload).toEqual({ eventId: first!.id });
    expect(await executeClaimedJob(testDb(), job, context)).toEqual({ status: "done", note: "delivered", finished: true });
    expect(await eventRow(first!.id)).toMatchObject({ status: "delivered", attemptCount: 1 });
    expect(await jobRow(job.id)).toMatchObject({ status: "done", lockToken: null, lockedBy: null, lastError: null });
    expect((await jobRow(job.id)).finishedAt).not.toBeNull();

    // Its lease ran out and another worker claimed it meanwhile: the attempt is recorded, the job
    // stays the other worker's.
    const second = await payAndEmit(biz, await createSessionRow(biz));
    const stale = await claim();
    await testDb().update(jobs).set({ lockToken: "someone-else", lockedBy: "w2" }).where(eq(jobs.id, stale.id));
    expect(await executeClaimedJob(testDb(), stale, context)).toMatchObject({ status: "done", note: "delivered" });
    expect(await eventRow(second!.id)).toMatchObject({ status: "delivered", attemptCount: 1 });
    expect(await jobRow(stale.id)).toMatchObject({ status: "running", lockToken: "someone-else", lockedBy: "w2", finishedAt: null });
    expect(hooks.requests).toHaveLength(2);
  });

  it("finds work committed without transactionWithJobs on its next poll", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url);
    const session = await createSessionRow(biz);
    worker(compressed, 250);
    const { emitWebhookEvent } = await import("./emit-webhook-event");
    await testDb().transaction(async (tx) => {
      const [payment] = await tx.select().from(payments).where(eq(payments.sessionId, session.id));
      await emitWebhookEvent(tx, { business: biz.business, session, payment, type: "expired" });
    });
    // Nothing announced this commit: only a poll can find the row.
    await hooks.waitForRequests(1, 45_000);
  });

  it.each([0, 1, 2, 3])(
    "delivers on attempt k+1 when the receiver fails k = %i times, on schedule",
    async (k) => {
      const hooks = await receiver((i) =>
        i < k ? { status: 500, body: `boom ${i}` } : { status: 200, body: "thanks" },
      );
      const biz = await createWebhookBusiness(hooks.url);
      worker();
      const event = await payAndEmit(biz, await createSessionRow(biz));
      await hooks.waitForRequests(k + 1, 45_000);
      await waitUntil(() => settled(event!.id));
      await new Promise((r) => setTimeout(r, 600)); // nothing more may come
      expect(hooks.requests).toHaveLength(k + 1);
      expect(new Set(hooks.requests.map((r) => r.headers["webhook-id"]))).toEqual(new Set([event!.id]));

      const { event: row, attempts } = await getWebhookEvent(testDb(), biz.business.id, event!.id);
      expect(row).toMatchObject({ status: "delivered", attemptCount: k + 1, attemptsInRound: k + 1 });
      expect(attempts.map((a) => [a.number, a.statusCode, a.outcome])).toEqual([
        ...Array.from({ length: k }, (_, i) => [i + 1, 500, "failed"]),
        [k + 1, 200, "succeeded"],
      ]);
      expect(attempts[0]!.responseBody).toBe(k ? "boom 0" : "thanks");
      expect(attempts[k]!.responseBody).toBe("thanks");
      for (const a of attempts) {
        expect(a.durationMs).toBeGreaterThanOrEqual(0);
        expect(a.startedAt).toBeTruthy();
        expect(a.finishedAt).toBeTruthy();
      }
      // No attempt comes before the (compressed) schedule's delay: 150, 300, 450 ms. (How late is
      // the machine's business; the waits above bound it far below the real schedule's minutes.)
      for (let i = 1; i <= k; i++) {
        const gap = hooks.requests[i]!.at - hooks.requests[i - 1]!.at;
        expect(gap).toBeGreaterThanOrEqual(compressed.scheduleMs![i]! - 5);
      }
    },
  );

  it("makes 4 attempts in all, then marks the event failed", async () => {
    const hooks = await receiver(() => ({ status: 503, body: "down" }));
    const biz = await createWebhookBusiness(hooks.url);
    worker();
    const event = await payAndEmit(biz, await createSessionRow(biz));
    await waitUntil(() => settled(event!.id));
    await new Promise((r) => setTimeout(r, 800));
    expect(hooks.requests).toHaveLength(4);
    const row = await eventRow(event!.id);
    expect(row).toMatchObject({
      status: "failed",
      attemptCount: 4,
      lastError: "HTTP 503",
      nextAttemptAt: null,
    });
    const [job] = await testDb()
      .select()
      .from(jobs)
      .where(eq(jobs.id, (await jobFor(event!.id)).id));
    expect(job).toMatchObject({ status: "done", lockToken: null });
  });

  it("tells the owners when an event failed every attempt, at most once a day", async () => {
    const hooks = await receiver(() => ({ status: 500, body: "down" }));
    const biz = await createWebhookBusiness(hooks.url);
    const owner = `${uniqueName("hook-owner")}@example.com`;
    await createUser(testDb(), { email: owner, password: "an owner password", businessId: biz.business.id, role: "owner" });
    worker();
    const first = await payAndEmit(biz, await createSessionRow(biz));
    const second = await payAndEmit(biz, await createSessionRow(biz));
    await waitUntil(async () => (await settled(first!.id)) && (await settled(second!.id)));
    const notices = await testDb()
      .select()
      .from(mailMessages)
      .where(and(eq(mailMessages.businessId, biz.business.id), eq(mailMessages.kind, "owner_notice")));
    expect(notices.map((n) => [n.toAddress, n.subject])).toEqual([[owner, "Your webhook endpoint is failing"]]);
    expect(notices[0]!.textBody).toContain(hooks.url);
  });

  it("counts a 3xx as a failure, does not follow it, and retries", async () => {
    let location = "";
    const hooks = await receiver((i) => (i === 0 ? { status: 301, headers: { location } } : { status: 200 }));
    location = `http://127.0.0.1:${hooks.port}/moved`;
    const biz = await createWebhookBusiness(hooks.url);
    worker();
    const event = await payAndEmit(biz, await createSessionRow(biz));
    await waitUntil(() => settled(event!.id));
    expect(hooks.requests.map((r) => r.path)).toEqual(["/hooks", "/hooks"]);
    const { attempts } = await getWebhookEvent(testDb(), biz.business.id, event!.id);
    expect(attempts.map((a) => [a.statusCode, a.error])).toEqual([
      [301, "redirect not followed"],
      [200, null],
    ]);
  });

  it("retries a 410 like any failure: 4 attempts in all", async () => {
    const hooks = await receiver(() => ({ status: 410, body: "gone" }));
    const biz = await createWebhookBusiness(hooks.url);
    worker();
    const event = await payAndEmit(biz, await createSessionRow(biz));
    await waitUntil(() => settled(event!.id));
    expect(hooks.requests).toHaveLength(4);
    expect(await eventRow(event!.id)).toMatchObject({ status: "failed", attemptCount: 4, lastError: "HTTP 410" });
  });

  it("times out a slow receiver and retries", async () => {
    // The first answer never comes in time; the others at once, well within 2 s on any machine.
    const hooks = await receiver((i) => (i === 0 ? { status: 200, delayMs: 60_000 } : { status: 200 }));
    const biz = await createWebhookBusiness(hooks.url);
    worker({ ...compressed, timeoutMs: 2000 });
    const event = await payAndEmit(biz, await createSessionRow(biz));
    await waitUntil(() => settled(event!.id));
    const { event: row, attempts } = await getWebhookEvent(testDb(), biz.business.id, event!.id);
    expect(row.status).toBe("delivered");
    expect(attempts[0]).toMatchObject({ statusCode: null, error: "timeout after 2000 ms", outcome: "failed" });
    expect(attempts[0]!.durationMs).toBeGreaterThanOrEqual(1990);
    expect(attempts[1]).toMatchObject({ statusCode: 200, outcome: "succeeded" });
  });

  it("honours Retry-After within the schedule", async () => {
    const hooks = await receiver((i) =>
      i === 0
        ? { status: 503, headers: { "retry-after": "1" } }
        : i === 1
          ? { status: 429, headers: { "retry-after": "3600" } }
          : { status: 200 },
    );
    const biz = await createWebhookBusiness(hooks.url);
    const context = defaultJobContext({ webhooks: { ...compressed, scheduleMs: [0, 50, 50, 1500] } });
    const event = await payAndEmit(biz, await createSessionRow(biz));
    // The attempts run by hand, so each planned time is read exactly (not a gap the machine's
    // load decides); a claim finds the row only once it is due.
    const attempt = async () => {
      let job: ClaimedJob | undefined;
      await waitUntil(async () => {
        [job] = await claimJobs(testDb(), {
          workerId: "w1",
          leaseMs: 60_000,
          limit: 1,
          kinds: ["deliver_webhook"],
          businessId: biz.business.id,
        });
        return job !== undefined;
      });
      return executeClaimedJob(testDb(), job!, context);
    };
    const plannedDelay = async (outcome: FinishedJob, number: number) => {
      if (outcome.status !== "retry") throw new Error(`attempt ${number} was not retried: ${outcome.status}`);
      const { attempts } = await getWebhookEvent(testDb(), biz.business.id, event!.id);
      return outcome.at.getTime() - new Date(attempts[number - 1]!.finishedAt!).getTime();
    };
    expect(await plannedDelay(await attempt(), 1)).toBe(1000); // Retry-After: 1 s beats the planned 50 ms
    expect(await plannedDelay(await attempt(), 2)).toBe(1500); // Retry-After: 1 h capped at the schedule's longest delay
    expect(await attempt()).toMatchObject({ status: "done", note: "delivered" });
    expect(hooks.requests[1]!.at - hooks.requests[0]!.at).toBeGreaterThanOrEqual(995);
    expect(hooks.requests[2]!.at - hooks.requests[1]!.at).toBeGreaterThanOrEqual(1495);
    expect(await eventRow(event!.id)).toMatchObject({ status: "delivered", attemptCount: 3 });
  });

  it("records a refused (SSRF) target as a failed attempt without connecting", async () => {
    const biz = await createWebhookBusiness("http://169.254.169.254/latest/meta-data/");
    // A tripwire on every outgoing connection but the database's own (the driver may reconnect).
    const original = net.Socket.prototype.connect;
    const forbidden: unknown[] = [];
    const connect = vi.spyOn(net.Socket.prototype, "connect").mockImplementation(function (this: net.Socket, ...args: unknown[]) {
      const target = JSON.stringify(args[0]);
      if (target.includes("169.254.169.254")) {
        forbidden.push(args[0]);
        throw new Error("tripwire");
      }
      return (original as (...a: unknown[]) => net.Socket).apply(this, args);
    });
    worker({ ...compressed, allowPrivate: false });
    const event = await payAndEmit(biz, await createSessionRow(biz));
    await waitUntil(() => settled(event!.id));
    const { attempts } = await getWebhookEvent(testDb(), biz.business.id, event!.id);
    expect(attempts).toHaveLength(4);
    expect(attempts[0]!.error).toMatch(/^Refused: 169\.254\.169\.254 is not a public address/);
    expect(forbidden).toEqual([]);
    connect.mockRestore();
  });

  it("resends a failed event by hand, and all failed events since a time", async () => {
    let up = false;
    const hooks = await receiver(() => (up ? { status: 200 } : { status: 500 }));
    const biz = await createWebhookBusiness(hooks.url);
    const fast = { ...compressed, scheduleMs: [0, 10, 10, 10] };
    const first = worker(fast);
    const since = new Date(Date.now() - 1000);
    const events: WebhookEvent[] = [];
    for (let i = 0; i < 3; i++) events.push((await payAndEmit(biz, await createSessionRow(biz)))!);
    for (const e of events) await waitUntil(() => settled(e.id));
    expect(
      (await listWebhookEvents(testDb(), biz.business.id, { status: "failed" })).data.map((e) => e.id).sort(),
    ).toEqual(events.map((e) => e.id).sort());

    up = true;
    // No worker while the resent event waits: a second resend must find it still pending, however
    // fast a running worker would have delivered it.
    await first.stop();
    const resent = await resendWebhookEvent(testDb(), biz.business.id, events[0]!.id);
    expect(resent).toMatchObject({ status: "pending", round: 2, attemptsInRound: 0 });
    await expect(resendWebhookEvent(testDb(), biz.business.id, events[0]!.id)).rejects.toThrow(
      /still being delivered/,
    );
    worker(fast);
    await waitUntil(() => settled(events[0]!.id));
    expect(await eventRow(events[0]!.id)).toMatchObject({ status: "delivered", attemptCount: 5, round: 2 });

    expect(await resendFailedWebhookEvents(testDb(), biz.business.id, new Date(Date.now() + 60_000))).toBe(0);
    expect(await resendFailedWebhookEvents(testDb(), biz.business.id, since)).toBe(2);
    for (const e of events) await waitUntil(() => settled(e.id));
    for (const e of events) expect((await eventRow(e.id)).status).toBe("delivered");
    // Same webhook-id on every attempt and round: receivers deduplicate on it.
    const ids = hooks.requests.map((r) => r.headers["webhook-id"]);
    expect(new Set(ids)).toEqual(new Set(events.map((e) => e.id)));
    await expect(resendWebhookEvent(testDb(), "biz_other", events[1]!.id)).rejects.toThrow(
      /No such webhook event/,
    );
  });

  it("signs with both tokens during a rotation's overlap", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url);
    const { token } = await rotateWebhookToken(testDb(), biz.business.id, { overlapSeconds: 3600 });
    worker();
    await payAndEmit(biz, await createSessionRow(biz));
    await hooks.waitForRequests(1);
    const got = hooks.requests[0]!;
    const headers = {
      "webhook-id": String(got.headers["webhook-id"]),
      "webhook-timestamp": String(got.headers["webhook-timestamp"]),
      "webhook-signature": String(got.headers["webhook-signature"]),
    };
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(() => new Webhook(token).verify(got.body.toString(), headers)).not.toThrow();
    expect(() => new Webhook(biz.webhookToken).verify(got.body.toString(), headers)).not.toThrow();
    expect(got.headers.signature).toBe(createHmac("sha256", token).update(got.body).digest("hex"));
  });

  it("sends a URL's credentials as Basic auth and keeps them out of the log", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url.replace("http://", "http://shop:p%40ss@"));
    worker();
    const event = await payAndEmit(biz, await createSessionRow(biz));
    await hooks.waitForRequests(1);
    expect(hooks.requests[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from("shop:p@ss").toString("base64")}`,
    );
    await waitUntil(() => settled(event!.id));
    const { attempts } = await getWebhookEvent(testDb(), biz.business.id, event!.id);
    expect(attempts[0]!.url).toBe(hooks.url);
  });

  it("sends nothing for kinds the business did not enable, and records events without a URL as skipped", async () => {
    const biz = await createWebhookBusiness("http://127.0.0.1:9/never", ["succeeded"]);
    const session = await createSessionRow(biz);
    expect(await payAndEmit(biz, session, { type: "pending_review" })).toBeNull();
    const silent = await createWebhookBusiness(null);
    const event = await payAndEmit(silent, await createSessionRow(silent));
    expect(event).toMatchObject({ status: "skipped", lastError: "no webhook URL configured" });
    expect(
      await testDb()
        .select()
        .from(jobs)
        .where(and(eq(jobs.businessId, silent.business.id), eq(jobs.kind, "deliver_webhook"))),
    ).toHaveLength(0);
  });
});

async function jobFor(eventId: string) {
  const rows = await testDb().select().from(jobs).where(eq(jobs.kind, "deliver_webhook"));
  return rows.find((j) => j.payload.eventId === eventId)!;
}
