import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRouter, dispatch } from "@/lib/api/routes";
import { resetEnv } from "@/lib/env";
import { defaultJobContext } from "@/lib/job-context";
import { claimJobs } from "@/lib/jobs/claim-jobs";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { executeClaimedJob } from "@/lib/jobs/run-job";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";
import { createSessionRow, createWebhookBusiness } from "@/lib/webhooks/testing/fixtures";
import { startLoopbackReceiver } from "@/lib/webhooks/testing/loopback-receiver";
import { createTestBusiness, testDb } from "@/test/helpers";
import { answerClientError, requestListener } from "@/server/request-listener";
import { recordLedgerVerification } from "@/lib/ledger/ledger-verification-schedule";
import { instrumentProvider } from "./provider-metrics";
import { scrapeAccess } from "./scrape-access";

// The server's own listener over real HTTP; the stub standing in for Next hands /api to the router,
// as app/api/[...path]/route.ts does (bodiless requests are enough here).
const server = http.createServer(
  requestListener(async (req, res) => {
    if (!req.url?.startsWith("/api/")) return void res.writeHead(404).end("next");
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === "string") headers.set(name, value);
    const response = await dispatch(
      new Request(`http://127.0.0.1:${port}${req.url}`, { method: req.method, headers }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(await response.text());
  }),
);
server.on("clientError", answerClientError);
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  delete process.env.METRICS_TOKEN;
  resetEnv();
});

async function scrape(headers: Record<string, string> = {}) {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, { headers });
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

/** The value of one series in a scrape, by its exact label set as Prometheus prints it. */
function value(text: string, series: string): number | null {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line ? Number(line.slice(series.length + 1)) : null;
}

/** An API call over HTTP to the listening server. */
const call = (method: string, path: string, key?: string) =>
  fetch(`http://127.0.0.1:${port}/api${path}`, {
    method,
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });

describe("GET /metrics access", () => {
  it("serves loopback clients when no token is configured, over real HTTP", async () => {
    const answer = await scrape();
    expect(answer.status).toBe(200);
    expect(answer.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(answer.text).toContain("# TYPE process_cpu_user_seconds_total counter");
    expect(answer.text).toContain("# TYPE nodejs_eventloop_lag_seconds gauge");
  });

  it("refuses a request a proxy forwarded, even from loopback, without a token", async () => {
    const answer = await scrape({ "x-forwarded-for": "198.51.100.7" });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.text)).toMatchObject({ error: "forbidden" });
  });

  it("with METRICS_TOKEN: 401 without it or with a wrong one, 200 with it", async () => {
    process.env.METRICS_TOKEN = "scrape-token-0123456789";
    resetEnv();
    const missing = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe("Bearer");
    expect((await scrape({ authorization: "Bearer scrape-token-012345678X" })).status).toBe(401);
    expect((await scrape({ authorization: "Bearer scrape-token-0123456789" })).status).toBe(200);
  });

  it("decides by peer address, forwarding headers and token", () => {
    const headers = {};
    expect(scrapeAccess({ peer: "127.0.0.1", headers }, undefined)).toEqual({ allowed: true });
    expect(scrapeAccess({ peer: "::1", headers }, undefined)).toEqual({ allowed: true });
    expect(scrapeAccess({ peer: "::ffff:127.0.0.1", headers }, undefined)).toEqual({ allowed: true });
    expect(scrapeAccess({ peer: "10.0.0.5", headers }, undefined)).toMatchObject({
      allowed: false,
      status: 403,
    });
    expect(
      scrapeAccess({ peer: "127.0.0.1", headers: { forwarded: "for=1.2.3.4" } }, undefined),
    ).toMatchObject({
      status: 403,
    });
    // A token configured: the address alone no longer lets anyone in.
    expect(scrapeAccess({ peer: "127.0.0.1", headers }, "t".repeat(16))).toMatchObject({ status: 401 });
    expect(
      scrapeAccess(
        { peer: "203.0.113.9", headers: { authorization: `Bearer ${"t".repeat(16)}` } },
        "t".repeat(16),
      ),
    ).toEqual({ allowed: true });
  });

  it("answers 405 to anything but GET and HEAD", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`, { method: "POST" });
    expect(response.status).toBe(405);
  });
});

describe("metrics in a scrape", () => {
  it("counts API requests by route pattern, method and status, never by raw path", async () => {
    const biz = await createTestBusiness();
    const before =
      value(
        (await scrape()).text,
        'kassa_http_requests_total{route="/payment/:session_id",method="GET",status="404"}',
      ) ?? 0;
    expect((await call("GET", "/payment/ses_doesnotexist123", biz.secretKey)).status).toBe(404);
    expect((await call("GET", "/payment/ses_doesnotexist456", biz.secretKey)).status).toBe(404);
    expect((await call("GET", "/health/live")).status).toBe(200);
    expect((await call("GET", "/no/such/endpoint")).status).toBe(404);
    const { text } = await scrape();
    expect(
      value(text, 'kassa_http_requests_total{route="/payment/:session_id",method="GET",status="404"}'),
    ).toBe(before + 2);
    expect(
      value(text, 'kassa_http_requests_total{route="/health/live",method="GET",status="200"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(text, 'kassa_http_requests_total{route="(unmatched)",method="GET",status="404"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(
        text,
        'kassa_http_request_duration_seconds_count{route="/payment/:session_id",method="GET",status="404"}',
      ),
    ).toBe(before + 2);
    expect(text).not.toContain("ses_doesnotexist");
    expect(text).not.toContain("/no/such/endpoint");
  });

  it("counts a handler that throws as a 500 under its pattern", async () => {
    const boom = createRouter([
      { method: "GET", pattern: "/boom/:id", handler: () => Promise.reject(new Error("handler broke")) },
    ]);
    await expect(boom(new Request("http://localhost/api/boom/42"))).rejects.toThrow("handler broke");
    const { text } = await scrape();
    expect(value(text, 'kassa_http_requests_total{route="/boom/:id",method="GET",status="500"}')).toBe(1);
  });

  it("shows the outbox depth and the age of the oldest due row by kind, read at scrape time", async () => {
    const biz = await createTestBusiness();
    await enqueueJob(testDb(), {
      kind: "setup_subscription",
      businessId: biz.business.id,
      payload: {},
      runAt: new Date(Date.now() - 90_000),
    });
    await enqueueJob(testDb(), {
      kind: "setup_subscription",
      businessId: biz.business.id,
      payload: {},
      delayMs: 3_600_000,
    });
    const { text } = await scrape();
    expect(
      value(text, 'kassa_outbox_jobs{kind="setup_subscription",status="pending"}'),
    ).toBeGreaterThanOrEqual(2);
    expect(
      value(text, 'kassa_outbox_oldest_due_age_seconds{kind="setup_subscription"}'),
    ).toBeGreaterThanOrEqual(89);
    expect(value(text, 'kassa_outbox_jobs{kind="refund_payment",status="running"}')).not.toBeNull();
  });

  it("counts webhook delivery outcomes with their latency", async () => {
    const receiver = await startLoopbackReceiver();
    try {
      const biz = await createWebhookBusiness(receiver.url, ["succeeded"]);
      const session = await createSessionRow(biz);
      const series = 'kassa_webhook_deliveries_total{outcome="succeeded"}';
      const before = value((await scrape()).text, series) ?? 0;
      await testDb().transaction((tx) =>
        emitWebhookEvent(tx, { business: biz.business, session, type: "succeeded" }),
      );
      const [job] = await claimJobs(testDb(), {
        workerId: "metrics-test",
        limit: 1,
        leaseMs: 60_000,
        kinds: ["deliver_webhook"],
        businessId: biz.business.id,
      });
      const context = defaultJobContext({ webhooks: { allowPrivate: true, timeoutMs: 2000 } });
      expect(await executeClaimedJob(testDb(), job!, context)).toMatchObject({ status: "done" });
      const { text } = await scrape();
      expect(value(text, series)).toBe(before + 1);
      expect(value(text, 'kassa_webhook_delivery_duration_seconds_count{outcome="succeeded"}')).toBe(
        before + 1,
      );
    } finally {
      await receiver.close();
    }
  });

  it("times provider calls and counts the ones that throw, by provider and operation", async () => {
    const adapter = instrumentProvider(
      {
        flow: "card" as const,
        prefix: "pi_",
        async getCharge(id: string) {
          if (id === "down") throw new Error("provider unavailable");
          return `${this.prefix}${id}`;
        },
      },
      "test_provider",
    );
    expect(adapter.flow).toBe("card");
    expect(await adapter.getCharge("1")).toBe("pi_1");
    await expect(adapter.getCharge("down")).rejects.toThrow("provider unavailable");
    const { text } = await scrape();
    const labels = 'provider="test_provider",operation="getCharge"';
    expect(value(text, `kassa_provider_call_duration_seconds_count{${labels},result="ok"}`)).toBe(1);
    expect(value(text, `kassa_provider_call_duration_seconds_count{${labels},result="error"}`)).toBe(1);
    expect(value(text, `kassa_provider_call_errors_total{${labels}}`)).toBe(1);
  });

  it("shows the last ledger verification: ok, problems, when", async () => {
    const started = Date.now() / 1000;
    await recordLedgerVerification(testDb());
    const { text } = await scrape();
    expect(value(text, "kassa_ledger_verify_ok")).toBe(1);
    expect(value(text, "kassa_ledger_verify_problems")).toBe(0);
    expect(value(text, "kassa_ledger_verify_last_run_timestamp_seconds")).toBeGreaterThanOrEqual(
      Math.floor(started),
    );

    const broken = { transaction: () => Promise.reject(new Error("database gone")) } as never;
    await recordLedgerVerification(broken);
    expect(value((await scrape()).text, "kassa_ledger_verify_ok")).toBe(0);
  });
});
