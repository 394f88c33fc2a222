import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle, type Db } from "@/db/client";
import { jobs, webhookDeliveries, webhookEvents, type Session } from "@/db/schema";
import type { CreatedBusiness } from "@/lib/businesses/create-business";
import { resetEnv } from "@/lib/env";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { overrideJobHandler } from "@/lib/jobs/registry";
import { reserveAttempt } from "@/lib/webhooks/reserve-attempt";
import type { WebhookDeliveryOptions } from "@/lib/webhooks/delivery-options";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";
import { createSessionRow, createWebhookBusiness } from "@/lib/webhooks/testing/fixtures";
import {
  startLoopbackReceiver,
  type LoopbackReceiver,
  type Reply,
} from "@/lib/webhooks/testing/loopback-receiver";
import { testDb, testHandle } from "@/test/helpers";
import { nodeEntryArgs } from "@/test/node-entry";
import { startEmbeddedWorker, type EmbeddedWorker, type EmbeddedWorkerOptions } from "./embedded-worker";

// An attempt's timeout far above any answer's time even on a starved machine: a timed-out attempt
// (which did arrive) is rightly made again, and these tests count attempts.
const webhooks: Partial<WebhookDeliveryOptions> = {
  scheduleMs: [0, 100, 200, 300],
  timeoutMs: 60_000,
  allowPrivate: true,
};

const open: {
  workers: EmbeddedWorker[];
  receivers: LoopbackReceiver[];
  servers: http.Server[];
  handles: DatabaseHandle[];
} = { workers: [], receivers: [], servers: [], handles: [] };

afterEach(async () => {
  await Promise.all(open.workers.splice(0).map((w) => w.stop()));
  await Promise.all(open.receivers.splice(0).map((r) => r.close()));
  for (const server of open.servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
  await Promise.all(open.handles.splice(0).map((h) => h.close()));
});

function worker(db: Db, options: EmbeddedWorkerOptions = {}) {
  const w = startEmbeddedWorker(db, { force: true, pollIntervalMs: 20, context: { webhooks }, ...options });
  open.workers.push(w);
  return w;
}

async function receiver(reply?: (index: number) => Reply) {
  const r = await startLoopbackReceiver(reply ? (_req, index) => reply(index) : undefined);
  open.receivers.push(r);
  return r;
}

/** A second application instance: its own connections to the same PostgreSQL database. */
async function secondInstanceDb(): Promise<Db> {
  const url = (testHandle() as DatabaseHandle & { url?: string }).url;
  if (!url) return testDb(); // PGlite: one embedded database, shared by both workers
  const handle = await openDatabase({ kind: "postgres", url, max: 10 });
  open.handles.push(handle);
  return handle.db;
}

/** `count` events due now for one business, written in one transaction. */
async function dueEvents(biz: CreatedBusiness, session: Session, count: number): Promise<string[]> {
  return testDb().transaction(async (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const event = await emitWebhookEvent(tx, { business: biz.business, session, type: "succeeded" });
      ids.push(event!.id);
    }
    return ids;
  });
}

// The bound only ends a hang: on a loaded 2-core machine a database round trip can take seconds.
async function waitUntil(check: () => Promise<boolean>, timeoutMs = 50_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function allDelivered(ids: string[]) {
  const rows = await testDb()
    .select({ status: webhookEvents.status })
    .from(webhookEvents)
    .where(inArray(webhookEvents.id, ids));
  return rows.length === ids.length && rows.every((r) => r.status === "delivered");
}

/** The distinct numbers of times the business's delivery rows were claimed. */
async function claimCounts(biz: CreatedBusiness): Promise<number[]> {
  const rows = await testDb()
    .select({ attempts: jobs.attempts })
    .from(jobs)
    .where(and(eq(jobs.businessId, biz.business.id), eq(jobs.kind, "deliver_webhook")));
  return [...new Set(rows.map((r) => r.attempts))].sort();
}

/** A receiver that holds every answer until the test sends it. */
async function holdingReceiver() {
  const held: http.ServerResponse[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => held.push(response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  open.servers.push(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    held,
    answerAll: () => {
      for (const response of held) response.writeHead(200).end("ok");
    },
  };
}

function perEventCounts(hooks: LoopbackReceiver) {
  const counts = new Map<string, number>();
  for (const r of hooks.requests) {
    const id = String(r.headers["webhook-id"]);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

describe("embedded worker", () => {
  it("two workers on one database racing over 1,000 due deliveries make each attempt exactly once", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url);
    const ids = await dueEvents(biz, await createSessionRow(biz), 1000);
    // Leases long enough that only the claim race is under test: on a starved machine a 60 s
    // lease can lapse mid-delivery, and the other worker then rightly makes a second attempt
    // (at least once; the lapse itself is tested below with a killed worker).
    // (The attempts' timeout is long for the same reason: see `webhooks`.)
    const leaseMs = 600_000;
    const a = worker(testDb(), { workerId: "instance-a", webhookConcurrency: 16, leaseMs });
    const b = worker(await secondInstanceDb(), { workerId: "instance-b", webhookConcurrency: 16, leaseMs });
    // A correctness test, not a speed one (that is `npm run bench`): the wait only bounds a hang,
    // generous because CI's two cores may be busy with other test files.
    // (On a PostgreSQL run with the machine's load at 30 it took over 180 s: the bound is 7 minutes.)
    await waitUntil(() => allDelivered(ids), 420_000);

    const counts = perEventCounts(hooks);
    expect(hooks.requests).toHaveLength(1000);
    expect(counts.size).toBe(1000);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const attempts = await testDb()
      .select({ number: webhookDeliveries.number })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.businessId, biz.business.id));
    expect(attempts).toHaveLength(1000);
    expect(attempts.every((d) => d.number === 1)).toBe(true);
    // Both really raced.
    expect(a.stats.claimed).toBeGreaterThan(0);
    expect(b.stats.claimed).toBeGreaterThan(0);
    expect(a.stats.claimed + b.stats.claimed).toBe(1000);
    expect(await claimCounts(biz)).toEqual([1]);
  }, 450_000);

  it("delivers the rows of a worker killed mid-batch once their lease has run out", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url);
    const ids = await dueEvents(biz, await createSessionRow(biz), 40);

    // The dead worker claimed 20 rows with a 600 ms lease, had reserved the attempt of 8 of them
    // (written "in flight", never sent), and then died: nothing of it runs any more.
    const leaseMs = 600;
    const claimedAt = Date.now();
    const held = await claimJobs(testDb(), { workerId: "killed", limit: 20, leaseMs });
    expect(held).toHaveLength(20);
    const heldEvents = held.map((j) => String(j.payload.eventId));
    for (const eventId of heldEvents.slice(0, 8)) await reserveAttempt(testDb(), eventId, 4);

    worker(testDb(), { workerId: "survivor" });
    await waitUntil(() => allDelivered(ids));

    const counts = perEventCounts(hooks);
    expect(counts.size).toBe(40);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    for (const r of hooks.requests)
      if (heldEvents.includes(String(r.headers["webhook-id"])))
        expect(r.at - claimedAt).toBeGreaterThanOrEqual(leaseMs - 5);
    const interrupted = await testDb()
      .select()
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.eventId, heldEvents.slice(0, 8)));
    expect(interrupted.map((d) => `${d.number}:${d.outcome}`).sort()).toEqual([
      ...Array<string>(8).fill("1:interrupted"),
      ...Array<string>(8).fill("2:succeeded"),
    ]);
    const claims = await testDb()
      .select({ attempts: jobs.attempts })
      .from(jobs)
      .where(
        inArray(
          jobs.id,
          held.map((j) => j.id),
        ),
      );
    expect(claims.every((j) => j.attempts === 2)).toBe(true);
  });

  it("stops cleanly: finishes what it holds", async () => {
    const hooks = await receiver(() => ({ status: 200, delayMs: 300 }));
    const biz = await createWebhookBusiness(hooks.url);
    const ids = await dueEvents(biz, await createSessionRow(biz), 6);
    const w = worker(testDb(), { concurrency: 8 });
    await hooks.waitForRequests(6);
    await w.stop();
    expect(await allDelivered(ids)).toBe(true);
    const running = await testDb().select().from(jobs).where(eq(jobs.status, "running"));
    expect(running).toHaveLength(0);
  });

  it("stops cleanly: releases what it still holds after the grace period", async () => {
    // The receiver answers only when the test says so: a stop that waited for the attempts would
    // never resolve; past its 50 ms grace it must.
    const hooks = await holdingReceiver();
    const biz = await createWebhookBusiness(hooks.url);
    const ids = await dueEvents(biz, await createSessionRow(biz), 4);
    const w = worker(testDb(), { concurrency: 8, stopGraceMs: 50 });
    await waitUntil(async () => hooks.held.length === 4);
    await w.stop();
    const held = await testDb()
      .select()
      .from(jobs)
      .where(and(eq(jobs.businessId, biz.business.id), eq(jobs.kind, "deliver_webhook")));
    expect(held.map((j) => [j.status, j.lockToken])).toEqual(
      Array.from({ length: 4 }, () => ["pending", null]),
    );
    // The requests in flight complete; the next worker finds the events delivered and sends nothing more.
    hooks.answerAll();
    await waitUntil(() => allDelivered(ids));
    worker(testDb());
    await waitUntil(async () =>
      (
        await testDb()
          .select()
          .from(jobs)
          .where(and(eq(jobs.businessId, biz.business.id), eq(jobs.kind, "deliver_webhook")))
      ).every((j) => j.status === "done"),
    );
    expect(hooks.held).toHaveLength(4);
  });

  it("keeps at most webhookConcurrency attempts in flight, and reaches that bound", async () => {
    // The receiver holds each answer until `bound` requests are open at once (or every event has
    // arrived, for a tail): the worker must fill its slots, and never open one more. No timer: a
    // slow machine must not answer a round early and so hide (or fake) the bound.
    const bound = 6;
    let open = 0;
    let peak = 0;
    const held: http.ServerResponse[] = [];
    const ids: string[] = [];
    let events: string[] = [];
    const answer = () => {
      for (const response of held.splice(0)) {
        open -= 1;
        response.writeHead(200).end("ok");
      }
    };
    const server = http.createServer((request, response) => {
      open += 1;
      peak = Math.max(peak, open);
      ids.push(String(request.headers["webhook-id"]));
      request.resume();
      request.on("end", () => {
        held.push(response);
        const allArrived = events.length > 0 && events.every((id) => ids.includes(id));
        if (held.length >= bound || allArrived) answer();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const biz = await createWebhookBusiness(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
      );
      events = await dueEvents(biz, await createSessionRow(biz), 30);
      worker(testDb(), { webhookConcurrency: bound, concurrency: 1 });
      await waitUntil(() => allDelivered(events), 150_000);
      expect(peak).toBe(bound);
      expect(ids.sort()).toEqual([...events].sort());
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 180_000); // 45 s once with the machine's load at 25

  it("claims a backlog in batches, not one row per finished attempt", async () => {
    const hooks = await receiver();
    const biz = await createWebhookBusiness(hooks.url);
    const ids = await dueEvents(biz, await createSessionRow(biz), 200);
    // A poll a minute apart (wake-ups drive it): every claim while the backlog lasts waits for a
    // quarter of the 20 slots (5) to be free. 1 first claim + 180 / 5 + the tail (at most one
    // empty claim per slot) bounds the statements, and each poll interval that passed may add
    // two (an announced claim of one row, the short claim after it); one claim per attempt would
    // make 200. A lease the run cannot outlive: only batching is under test.
    const started = Date.now();
    const w = worker(testDb(), { webhookConcurrency: 20, pollIntervalMs: 60_000, leaseMs: 600_000 });
    await waitUntil(() => allDelivered(ids), 120_000);
    const polls = Math.floor((Date.now() - started) / 60_000);
    expect(await claimCounts(biz)).toEqual([1]); // each row claimed exactly once
    expect(w.stats.claimed).toBe(200);
    expect(w.stats.peakRunning).toBeLessThanOrEqual(20);
    expect(w.stats.claims).toBeLessThanOrEqual(1 + 180 / 5 + 1 + 20 + 2 * polls);
    expect(perEventCounts(hooks).size).toBe(200);
    expect([...perEventCounts(hooks).values()].every((n) => n === 1)).toBe(true);
  }, 150_000);

  it("claims nothing while paused (the disk under its floor), and the due work once resumed", async () => {
    const restore = overrideJobHandler("refund_payment", async () => ({ status: "done" }));
    try {
      const biz = await createWebhookBusiness("https://example.com/hooks");
      let paused = true;
      let asked = 0;
      const w = worker(testDb(), {
        pauseWhen: async () => {
          asked += 1;
          return paused;
        },
      });
      const job = await enqueueJob(testDb(), { kind: "refund_payment", businessId: biz.business.id, payload: {} });
      const status = async () =>
        (await testDb().select({ status: jobs.status }).from(jobs).where(eq(jobs.id, job!.id)))[0]!.status;
      // Asked several times with the job due: it stays pending, and no claim was made.
      await waitUntil(async () => asked >= 3);
      expect(await status()).toBe("pending");
      expect(w.stats.claims).toBe(0);
      paused = false;
      await waitUntil(async () => (await status()) === "done");
    } finally {
      restore();
    }
  });

  it("runs other jobs in slots of their own: receivers that do not answer do not hold them up", async () => {
    const hooks = await holdingReceiver();
    const { held } = hooks;
    const restore = overrideJobHandler("refund_payment", async () => ({ status: "done" }));
    try {
      const biz = await createWebhookBusiness(hooks.url);
      const ids = await dueEvents(biz, await createSessionRow(biz), 4);
      worker(testDb(), { webhookConcurrency: 4, concurrency: 1 });
      await waitUntil(async () => held.length === 4);
      // Every webhook slot now waits on the receiver; other work still runs.
      const other = await enqueueJob(testDb(), {
        kind: "refund_payment",
        businessId: biz.business.id,
        payload: {},
      });
      await waitUntil(async () => {
        const [row] = await testDb().select({ status: jobs.status }).from(jobs).where(eq(jobs.id, other!.id));
        return row!.status === "done";
      });
      expect(held).toHaveLength(4);
      expect(await allDelivered(ids)).toBe(false);
      hooks.answerAll();
      await waitUntil(() => allDelivered(ids));
    } finally {
      restore();
    }
  });

  it("stays off when Inngest is configured", async () => {
    process.env.INNGEST_DEV = "1";
    resetEnv();
    try {
      const w = startEmbeddedWorker(testDb());
      expect(w.running).toBe(false);
      await w.stop();
    } finally {
      delete process.env.INNGEST_DEV;
      resetEnv();
    }
  });
});

describe.runIf(process.env.DATABASE_URL)("embedded worker in another process (PostgreSQL)", () => {
  it("a worker process SIGKILLed mid-batch: its rows are delivered by another instance after the lease", async () => {
    const { spawn } = await import("node:child_process");
    const path = await import("node:path");
    // The first 5 requests hang (the child is mid-attempt on all of them when it is killed).
    const hooks = await receiver((i) => (i < 5 ? { status: 200, delayMs: 60_000 } : { status: 200 }));
    const biz = await createWebhookBusiness(hooks.url);
    const ids = await dueEvents(biz, await createSessionRow(biz), 20);
    const url = (testHandle() as DatabaseHandle & { url?: string }).url!;
    const root = path.resolve(import.meta.dirname, "../..");
    const child = spawn(
      process.execPath,
      // node itself, on the bundle or with tsx as a loader (the tsx CLI would run it in a grandchild).
      [...nodeEntryArgs("lib/worker/testing/worker-process.ts"), url, "1000"],
      { cwd: root, env: { ...process.env, LOG_LEVEL: "silent" }, stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      await hooks.waitForRequests(5, 90_000); // a child process's start-up, on a busy machine
      child.kill("SIGKILL");
      await exited;
      const killedAt = Date.now();
      const held = await testDb().select().from(jobs).where(eq(jobs.status, "running"));
      expect(held).toHaveLength(5);

      worker(testDb(), { workerId: "survivor" });
      await waitUntil(() => allDelivered(ids));
      const counts = perEventCounts(hooks);
      expect(counts.size).toBe(20);
      expect([...counts.values()].sort()).toEqual([
        ...Array<number>(15).fill(1),
        ...Array<number>(5).fill(2),
      ]);
      const retried = [...counts].filter(([, n]) => n === 2).map(([id]) => id);
      for (const r of hooks.requests.slice(5))
        if (retried.includes(String(r.headers["webhook-id"]))) expect(r.at).toBeGreaterThan(killedAt - 50);
      const attempts = await testDb()
        .select()
        .from(webhookDeliveries)
        .where(inArray(webhookDeliveries.eventId, retried));
      expect(attempts.map((d) => `${d.number}:${d.outcome}`).sort()).toEqual([
        ...Array<string>(5).fill("1:interrupted"),
        ...Array<string>(5).fill("2:succeeded"),
      ]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }, 240_000);
});
