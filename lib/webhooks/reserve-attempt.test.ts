import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businesses, webhookDeliveries, webhookEvents } from "@/db/schema";
import { defaultJobContext } from "@/lib/job-context";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import type { JobOutcome } from "@/lib/jobs/job-outcome";
import { testDb } from "@/test/helpers";
import { deliverWebhookJob } from "./deliver-webhook";
import { readForAttempt, reserveAfterRead, reserveAttempt } from "./reserve-attempt";
import { createSessionRow, createWebhookBusiness, payAndEmit } from "./testing/fixtures";

// No receiver: these tests reserve attempts and never send them.
const url = "http://127.0.0.1:9/hooks";

async function pendingEvent(webhookUrl = url) {
  const biz = await createWebhookBusiness(webhookUrl);
  const event = await payAndEmit(biz, await createSessionRow(biz));
  return { biz, eventId: event!.id };
}

async function eventRow(id: string) {
  const [row] = await testDb().select().from(webhookEvents).where(eq(webhookEvents.id, id));
  return row!;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const attemptsOf = (eventId: string) =>
  testDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId)).orderBy(webhookDeliveries.number);

describe("reserving a webhook attempt", () => {
  it("reserves a first attempt in one conditional statement: the count and the attempt row together", async () => {
    const { biz, eventId } = await pendingEvent(url.replace("http://", "http://shop:secret@"));
    const reserved = await reserveAttempt(testDb(), eventId, 4);
    if (reserved.kind !== "attempt") throw new Error(`not reserved: ${JSON.stringify(reserved)}`);
    expect(reserved.via).toBe("conditional");
    expect(reserved.event).toMatchObject({ id: eventId, businessId: biz.business.id, round: 1, attemptCount: 1, attemptsInRound: 1 });
    expect(reserved.url).toBe(url.replace("http://", "http://shop:secret@"));
    expect(reserved.headers!["webhook-id"]).toBe(eventId);

    const event = await eventRow(eventId);
    expect(event).toMatchObject({ status: "pending", attemptCount: 1, attemptsInRound: 1, nextAttemptAt: null });
    const attempts = await attemptsOf(eventId);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      id: reserved.deliveryId,
      businessId: biz.business.id,
      number: 1,
      round: 1,
      outcome: "in_flight",
      url, // the credentials are not logged
      requestHeaders: reserved.headers,
    });
    expect(new Date(attempts[0]!.startedAt).getTime()).toBe(new Date(event.lastAttemptAt!).getTime());
  });

  it("takes the locked transaction for an attempt after the first: one left in flight is closed as interrupted", async () => {
    const { eventId } = await pendingEvent();
    const first = await reserveAttempt(testDb(), eventId, 4);
    expect(first).toMatchObject({ kind: "attempt", via: "conditional" });
    // The first attempt's worker died before recording it; the job runs again.
    const second = await reserveAttempt(testDb(), eventId, 4);
    expect(second).toMatchObject({ kind: "attempt", via: "locked", event: { attemptCount: 2, attemptsInRound: 2 } });
    expect((await attemptsOf(eventId)).map((a) => `${a.number}:${a.outcome}`)).toEqual(["1:interrupted", "2:in_flight"]);
    expect(await eventRow(eventId)).toMatchObject({ attemptCount: 2, attemptsInRound: 2 });
  });

  it("gives up after the last attempt, as before", async () => {
    const { eventId } = await pendingEvent();
    for (let i = 0; i < 2; i++) expect(await reserveAttempt(testDb(), eventId, 2)).toMatchObject({ kind: "attempt" });
    expect(await reserveAttempt(testDb(), eventId, 2)).toEqual({ kind: "stop", reason: "attempts exhausted" });
    expect(await eventRow(eventId)).toMatchObject({ status: "failed", attemptCount: 2 });
    expect((await attemptsOf(eventId)).map((a) => a.outcome)).toEqual(["interrupted", "interrupted"]);
  });

  it("holds the event of a paused endpoint, also when the pause commits between the read and the statement", async () => {
    const paused = await pendingEvent();
    await testDb().update(businesses).set({ webhookState: "paused" }).where(eq(businesses.id, paused.biz.business.id));
    expect(await reserveAttempt(testDb(), paused.eventId, 4)).toEqual({ kind: "stop", reason: "held: the endpoint is paused" });
    expect(await eventRow(paused.eventId)).toMatchObject({ status: "held", attemptCount: 0 });
    expect(await attemptsOf(paused.eventId)).toEqual([]);

    const late = await pendingEvent();
    const read = await readForAttempt(testDb(), late.eventId);
    expect(read).toMatchObject({ status: "pending", attempt_count: 0, webhook_state: "active" });
    await testDb().update(businesses).set({ webhookState: "disabled" }).where(eq(businesses.id, late.biz.business.id));
    expect(await reserveAfterRead(testDb(), read!, 4)).toEqual({ kind: "stop", reason: "held: the endpoint is disabled" });
    expect(await eventRow(late.eventId)).toMatchObject({ status: "held", attemptCount: 0 });
    expect(await attemptsOf(late.eventId)).toEqual([]);
  });

  it("writes nothing when the attempt's row cannot be written: the count goes up with it or not at all", async () => {
    const { biz, eventId } = await pendingEvent();
    // A stray row already holds attempt 1: the statement's insert fails, and its update with it.
    await testDb().insert(webhookDeliveries).values({
      id: `delivery_stray_${eventId}`,
      eventId,
      businessId: biz.business.id,
      number: 1,
      round: 1,
      startedAt: new Date().toISOString(),
      outcome: "failed",
    });
    await expect(reserveAttempt(testDb(), eventId, 4)).rejects.toThrow();
    expect(await eventRow(eventId)).toMatchObject({ status: "pending", attemptCount: 0, attemptsInRound: 0, lastAttemptAt: null });
  });

  it("two deliverers of one event at once, both having read it before either reserved: exactly one attempt", async () => {
    const { eventId } = await pendingEvent();
    const [a, b] = [await readForAttempt(testDb(), eventId), await readForAttempt(testDb(), eventId)];
    // On PostgreSQL the two statements run on two connections at once: the second waits for the
    // first's row lock, then finds the count changed.
    const results = await Promise.all([reserveAfterRead(testDb(), a!, 4), reserveAfterRead(testDb(), b!, 4)]);
    const made = results.filter((r) => r.kind === "attempt");
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ via: "conditional", event: { attemptCount: 1 } });
    expect(results.filter((r) => r.kind === "busy")).toEqual([
      { kind: "busy", reason: "another delivery of this event reserved its attempt", attemptsInRound: 1 },
    ]);
    const attempts = await attemptsOf(eventId);
    expect(attempts.map((x) => `${x.number}:${x.outcome}`)).toEqual(["1:in_flight"]);
    expect(attempts[0]!.id).toBe((made[0] as { deliveryId: string }).deliveryId);
    expect(await eventRow(eventId)).toMatchObject({ status: "pending", attemptCount: 1, attemptsInRound: 1 });
  });

  it("a deliverer that read the event before another delivered it makes no attempt", async () => {
    const { eventId } = await pendingEvent();
    const stale = await readForAttempt(testDb(), eventId);
    expect(await reserveAttempt(testDb(), eventId, 4)).toMatchObject({ kind: "attempt", via: "conditional" });
    // The other deliverer recorded its attempt delivered.
    await testDb().update(webhookEvents).set({ status: "delivered" }).where(eq(webhookEvents.id, eventId));
    expect(await reserveAfterRead(testDb(), stale!, 4)).toEqual({ kind: "stop", reason: "event already delivered" });
    expect(await attemptsOf(eventId)).toHaveLength(1);
  });

  // PostgreSQL only: PGlite has one connection, so nothing runs at once there (the test above
  // covers its serialized race).
  it.runIf(process.env.DATABASE_URL)(
    "two whole deliveries of one event blocked at once on its row: one request, one attempt, the other retries later",
    async () => {
      // A receiver that answers only when told: the winner's attempt stays in flight meanwhile.
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const requests: string[] = [];
      const server = http.createServer((req, res) => {
        requests.push(String(req.headers["webhook-id"]));
        req.resume();
        void released.then(() => res.end("ok"));
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        const biz = await createWebhookBusiness(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
        const event = await payAndEmit(biz, await createSessionRow(biz));
        const [job] = await claimJobs(testDb(), { workerId: "w1", leaseMs: 600_000, limit: 1, kinds: ["deliver_webhook"], businessId: biz.business.id });
        const webhooks = { scheduleMs: [0, 150, 300, 450], timeoutMs: 30_000, allowPrivate: true };
        const ctx = defaultJobContext({ webhooks });
        const settled: JobOutcome[] = [];
        const deliver = () => deliverWebhookJob(testDb(), job!, ctx).then((o) => (settled.push(o), o));
        let both: Promise<JobOutcome[]> | undefined;
        const start = Date.now();
        // A third connection holds the event's row while both deliverers read it (unlocked) and
        // reach their conditional statements, which then wait on the row together.
        await testDb().transaction(async (tx) => {
          await tx.execute(sql`select id from webhook_events where id = ${event!.id} for update`);
          both = Promise.all([deliver(), deliver()]);
          await waitUntil(async () => {
            // On PostgreSQL (postgres.js) execute answers the rows themselves.
            const rows = (await testDb().execute(
              sql`select count(*)::int as n from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock' and query like '%with reserved as%'`,
            )) as unknown as { n: number }[];
            return Number(rows[0]!.n) >= 2;
          });
        });
        // The loser answers while the winner's attempt is still unanswered.
        await waitUntil(async () => settled.length === 1 && requests.length === 1);
        expect(settled[0]).toMatchObject({ status: "retry", note: "another delivery of this event reserved its attempt" });
        // Not before the other attempt has timed out and its next one would be due.
        expect((settled[0] as { at: Date }).at.getTime()).toBeGreaterThanOrEqual(start + webhooks.timeoutMs + 150);
        expect(requests).toEqual([event!.id]);
        expect((await attemptsOf(event!.id)).map((a) => `${a.number}:${a.outcome}`)).toEqual(["1:in_flight"]);
        release();
        expect((await both!).map((o) => o.status).sort()).toEqual(["done", "retry"]);
        expect(settled[1]).toEqual({ status: "done", note: "delivered", finished: true });
        expect(requests).toEqual([event!.id]);
        expect((await attemptsOf(event!.id)).map((a) => `${a.number}:${a.outcome}`)).toEqual(["1:succeeded"]);
        expect(await eventRow(event!.id)).toMatchObject({ status: "delivered", attemptCount: 1, attemptsInRound: 1 });
      } finally {
        release();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );
});
