import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { startStripeEmulator } from "@kassa/stripe-emulator";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createRouter } from "@/lib/api/routes";
import { ProviderUnavailableError, RateLimitedError } from "@/lib/errors";
import { apiHandler } from "@/lib/api/handler";
import { defaultJobContext } from "@/lib/job-context";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { overrideJobHandler } from "@/lib/jobs/registry";
import { executeClaimedJob } from "@/lib/jobs/run-job";
import { stripeOperation } from "@/lib/providers/stripe/observed-http-client";
import { stripeClient } from "@/lib/providers/stripe/stripe-client";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";
import { createSessionRow, createWebhookBusiness } from "@/lib/webhooks/testing/fixtures";
import { startLoopbackReceiver } from "@/lib/webhooks/testing/loopback-receiver";
import { createTestBusiness, testDb, withTestEnv } from "@/test/helpers";
import { requestListener } from "@/server/request-listener";
import { countDatabaseError, resetRefusalLog } from "./failure-metrics";
import { metrics } from "./registry";

// Each failure made for real (an endpoint answering 500, the emulator refusing a call, a body
// too large or too slow) moves its counter and writes a warn line (docs/operations.md#alerting).

/** A counter's value for these exact labels (0 when the series does not exist yet). */
async function counter(
  name: keyof ReturnType<typeof metrics>,
  labels: Record<string, string>,
): Promise<number> {
  const metric = metrics()[name] as {
    get(): Promise<{ values: { labels: Record<string, unknown>; value: number }[] }>;
  };
  const found = (await metric.get()).values.find((v) =>
    Object.entries(labels).every(([key, value]) => String(v.labels[key]) === value),
  );
  return found?.value ?? 0;
}

/** Warn lines written while `work` runs (the log writes them to stderr as JSON). */
async function warnLines(work: () => Promise<void>): Promise<Record<string, unknown>[]> {
  const lines: Record<string, unknown>[] = [];
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split("\n").filter(Boolean)) {
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
    return true;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

// The warn lines are part of what is asserted (the tests' default level is error).
withTestEnv({ LOG_LEVEL: "warn" });

// The server's own listener over real HTTP, with a short body timeout; the stand-in for Next
// reads every body whole.
const server = http.createServer(
  requestListener(
    async (req, res) => {
      for await (const chunk of req) void chunk;
      if (!res.headersSent) res.writeHead(200).end("read");
    },
    undefined,
    { bodyTimeoutMs: 300 },
  ),
);
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends raw bytes and answers the status line of the reply. */
function rawRequest(text: string, thenWaitMs = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (data: Buffer) => (answer += data.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => resolve(answer.split("\r\n")[0] ?? ""));
    socket.write(text);
    if (thenWaitMs) setTimeout(() => socket.end(), thenWaitMs);
  });
}

describe("rejected requests", () => {
  it("counts a body over the limit (413) and one too slow (408) by reason, and logs them", async () => {
    const labels413 = { status: "413", reason: "request_too_large" };
    const labels408 = { status: "408", reason: "request_timeout" };
    const before413 = await counter("requestsRejected", labels413);
    const before408 = await counter("requestsRejected", labels408);
    // Another file in this process may have logged a refusal within the minute (vitest runs a
    // worker's files in one process): the throttle starts afresh here.
    resetRefusalLog();
    const lines = await warnLines(async () => {
      const big = await fetch(`http://127.0.0.1:${port}/api/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "x".repeat(2 * 1024 * 1024),
      }).catch(() => null);
      if (big) expect(big.status).toBe(413);
      // Half a body, then silence: the server gives up after its body timeout.
      const status = await rawRequest(
        "POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
        3000,
      );
      expect(status).toContain("408");
    });
    expect(await counter("requestsRejected", labels413)).toBeGreaterThan(before413);
    expect(await counter("requestsRejected", labels408)).toBeGreaterThan(before408);
    // The first refusal of a kind in this process is logged at once (later ones, once a minute).
    const refusals = lines.filter((l) => l.message === "requests refused" && l.level === "warn");
    expect(refusals.map((l) => l.status)).toEqual(expect.arrayContaining([413, 408]));
  });

  it("counts API answers 429 and 503 by their error code", async () => {
    const router = createRouter([
      {
        method: "GET",
        pattern: "/limited",
        handler: apiHandler({ auth: "none", handle: () => Promise.reject(new RateLimitedError("ip", 7)) }),
      },
      {
        method: "GET",
        pattern: "/provider-down",
        handler: apiHandler({
          auth: "none",
          handle: () => Promise.reject(new ProviderUnavailableError("the provider is down")),
        }),
      },
    ]);
    const limited = { status: "429", reason: "rate_limit_exceeded" };
    const down = { status: "503", reason: "provider_unavailable" };
    const beforeLimited = await counter("requestsRejected", limited);
    const beforeDown = await counter("requestsRejected", down);
    expect((await router(new Request("http://localhost/api/limited"))).status).toBe(429);
    expect((await router(new Request("http://localhost/api/provider-down"))).status).toBe(503);
    expect(await counter("requestsRejected", limited)).toBe(beforeLimited + 1);
    expect(await counter("requestsRejected", down)).toBe(beforeDown + 1);
  });
});

describe("failed webhook attempts", () => {
  it("an endpoint answering 500 counts as http_error and writes a warn line with the event", async () => {
    const receiver = await startLoopbackReceiver(() => ({ status: 500, body: "broken" }));
    try {
      const biz = await createWebhookBusiness(receiver.url, ["succeeded"]);
      const session = await createSessionRow(biz);
      const before = await counter("webhookDeliveries", { outcome: "http_error" });
      await testDb().transaction((tx) =>
        emitWebhookEvent(tx, { business: biz.business, session, type: "succeeded" }),
      );
      const [job] = await claimJobs(testDb(), {
        workerId: "signals-test",
        limit: 1,
        leaseMs: 60_000,
        kinds: ["deliver_webhook"],
        businessId: biz.business.id,
      });
      const context = defaultJobContext({ webhooks: { allowPrivate: true, timeoutMs: 2000 } });
      const lines = await warnLines(async () => {
        expect(await executeClaimedJob(testDb(), job!, context)).toMatchObject({ status: "retry" });
      });
      expect(await counter("webhookDeliveries", { outcome: "http_error" })).toBe(before + 1);
      const line = lines.find((l) => l.message === "webhook attempt failed");
      expect(line).toMatchObject({ level: "warn", outcome: "http_error", statusCode: 500, attempt: 1 });
      expect(String(line?.eventId)).toMatch(/^evt_/);
    } finally {
      await receiver.close();
    }
  });
});

describe("provider requests", () => {
  it("names an operation by its path with the ids replaced", () => {
    expect(stripeOperation("POST", "/v1/payment_intents/pi_3NxYz12AbC/confirm")).toBe(
      "POST /v1/payment_intents/:id/confirm",
    );
    expect(stripeOperation("POST", "/v1/test_helpers/test_clocks/clock_1Ab2/advance")).toBe(
      "POST /v1/test_helpers/test_clocks/:id/advance",
    );
    expect(stripeOperation("GET", "/v1/customers?email=x%40example.com")).toBe("GET /v1/customers");
  });

  it("counts what the emulator refuses and what never got an answer, by operation and outcome", async () => {
    const emulator = await startStripeEmulator();
    try {
      const stripe = stripeClient("sk_test_emu_signals", emulator.stripeConfig);
      const refused = {
        provider: "stripe_emulator",
        operation: "GET /v1/payment_intents/:id",
        outcome: "client_error",
      };
      const before = await counter("providerRequests", refused);
      await expect(stripe.paymentIntents.retrieve("pi_3DoesNotExist0")).rejects.toThrow();
      expect(await counter("providerRequests", refused)).toBe(before + 1);
    } finally {
      await emulator.close();
    }
    // Nothing listens there any more: no answer, a warn line for each try.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const lost = { provider: "stripe_emulator", operation: "POST /v1/customers", outcome: "network_error" };
    const beforeLost = await counter("providerRequests", lost);
    const dead = stripeClient("sk_test_emu_signals", { host: "127.0.0.1", port: deadPort, protocol: "http" });
    const lines = await warnLines(async () => {
      await expect(dead.customers.create({})).rejects.toThrow();
    });
    expect(await counter("providerRequests", lost)).toBeGreaterThan(beforeLost);
    expect(lines.find((l) => l.message === "payment provider request got no answer")).toMatchObject({
      level: "warn",
      provider: "stripe_emulator",
      operation: "POST /v1/customers",
    });
  });
});

describe("jobs and the database", () => {
  it("a job that keeps asking for another try and runs out of them counts as failed", async () => {
    const { business } = await createTestBusiness();
    (await import("@/lib/job-handlers")).registerAllJobHandlers();
    const labels = { kind: "expire_session", outcome: "failed" };
    const before = await counter("jobFailures", labels);
    const restore = overrideJobHandler("expire_session", async () => ({
      status: "retry",
      at: new Date(),
      note: "not yet",
    }));
    try {
      await enqueueJob(testDb(), {
        kind: "expire_session",
        businessId: business.id,
        payload: {},
        maxAttempts: 1,
      });
      const [job] = await claimJobs(testDb(), {
        workerId: "signals-test",
        limit: 1,
        leaseMs: 60_000,
        kinds: ["expire_session"],
        businessId: business.id,
      });
      const lines = await warnLines(async () => {
        expect(await executeClaimedJob(testDb(), job!, defaultJobContext())).toMatchObject({
          status: "failed",
        });
      });
      expect(await counter("jobFailures", labels)).toBe(before + 1);
      expect(lines.find((l) => l.message === "job gave up")).toMatchObject({
        level: "error",
        kind: "expire_session",
      });
    } finally {
      restore();
    }
  });

  it("countDatabaseError counts by class, for the classifier to call", async () => {
    const before = await counter("databaseErrors", { kind: "connection_lost" });
    countDatabaseError("connection_lost");
    expect(await counter("databaseErrors", { kind: "connection_lost" })).toBe(before + 1);
  });
});
