import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./test-http-client";

// Kassa's server as its own process (./test-http-server.ts, started as server/main.ts starts:
// tracing, database, worker) with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a real OTLP/HTTP receiver
// this test runs: the official SDK's JSON export, decoded here, not a mock of the SDK.

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};
type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean | undefined>;
  status?: { code?: number };
};
type ExportBody = {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: AnyValue }[] };
    scopeSpans?: {
      spans?: (Omit<ReceivedSpan, "attributes"> & { attributes?: { key: string; value: AnyValue }[] })[];
    }[];
  }[];
};

const spans: ReceivedSpan[] = [];
const resources: Record<string, unknown>[] = [];
const contentTypes = new Set<string>();

function plain(value: AnyValue): string | number | boolean | undefined {
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue;
}

function attributes(list: { key: string; value: AnyValue }[] = []) {
  return Object.fromEntries(list.map((a) => [a.key, plain(a.value)]));
}

/** The OTLP/HTTP receiver: POST /v1/traces, JSON (ExportTraceServiceRequest), answered 200. */
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    contentTypes.add(`${req.method} ${req.url} ${req.headers["content-type"]}`);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ExportBody;
    for (const resourceSpans of body.resourceSpans ?? []) {
      resources.push(attributes(resourceSpans.resource?.attributes));
      for (const scope of resourceSpans.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          spans.push({ ...span, attributes: attributes(span.attributes) });
    }
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});

let server: TestServer;
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  server = await startTestServer({
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "100",
    LOG_LEVEL: "warn",
  });
}, 300_000);
afterAll(async () => {
  server?.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`http://127.0.0.1:${server.port}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${server.secretKey}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Waits (generously: a busy machine) until a span matching `find` has been exported. */
async function waitForSpan(find: (span: ReceivedSpan) => boolean, what: string): Promise<ReceivedSpan> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const found = spans.find(find);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no span ${what} among ${spans.map((s) => s.name).join(", ")}`);
}

/** Whether `span` descends from `ancestor` (same trace, parent links all the way up). */
function descendsFrom(span: ReceivedSpan, ancestor: ReceivedSpan): boolean {
  let current: ReceivedSpan | undefined = span;
  while (current?.parentSpanId) {
    if (current.parentSpanId === ancestor.spanId) return span.traceId === ancestor.traceId;
    const parentId: string = current.parentSpanId;
    current = spans.find((s) => s.spanId === parentId);
  }
  return false;
}

describe("OpenTelemetry traces over OTLP/HTTP", () => {
  it("a session created and paid: a span per request, database and provider spans under it, no secrets", async () => {
    const email = "otel-payer@example.com";
    const created = await call("POST", "/session", {
      amount: 2500,
      currency: "USD",
      customer: { id: "cus_otel", email },
      order_id: `order-otel-${Date.now()}`,
      items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const sessionId = String(created.body.session_id);
    const paid = await call("POST", `/sandbox/sessions/${sessionId}/pay`, {
      card_number: "4242424242424242",
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);

    const createSpan = await waitForSpan((s) => s.name === "POST /api/session", "POST /api/session");
    expect(createSpan.kind).toBe(2); // SERVER
    expect(createSpan.parentSpanId || undefined).toBeUndefined();
    expect(createSpan.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/api/session",
      "http.response.status_code": 201,
      "kassa.business_id": server.businessId,
    });
    expect(String(createSpan.attributes["kassa.request_id"])).not.toBe("");

    const paySpan = await waitForSpan(
      (s) => s.name === "POST /api/sandbox/sessions/:session_id/pay",
      "for the pay request",
    );
    expect(paySpan.attributes).toMatchObject({
      "http.response.status_code": 200,
      "kassa.business_id": server.businessId,
    });
    expect(paySpan.traceId).not.toBe(createSpan.traceId);

    // Children of the pay (POST /session writes in autocommit, decision 0056: no transaction):
    // its database transactions, its provider calls (the adapter's method, and under it the Stripe
    // SDK's requests to the emulator).
    await waitForSpan(
      (s) => s.name === "db.transaction" && descendsFrom(s, paySpan),
      "db.transaction under the pay",
    );
    const providerCall = await waitForSpan(
      (s) => s.name === "provider stripe.charge" && descendsFrom(s, paySpan),
      "the adapter's charge under the pay",
    );
    const sdkRequest = await waitForSpan(
      (s) => s.name.startsWith("stripe_emulator POST /v1/payment_intents") && descendsFrom(s, providerCall),
      "Stripe SDK request to the emulator under the provider call",
    );
    expect(sdkRequest.kind).toBe(3); // CLIENT
    expect(sdkRequest.attributes).toMatchObject({
      "kassa.provider": "stripe_emulator",
      "http.response.status_code": 200,
    });

    // The service, by the standard resource attributes.
    expect(resources[0]).toMatchObject({ "service.name": "kassa" });
    expect([...contentTypes][0]).toMatch(/^POST \/v1\/traces application\/json/);

    // Nothing secret or personal in any attribute of any span.
    const everything = JSON.stringify(spans);
    expect(everything).not.toContain(server.secretKey);
    expect(everything).not.toContain(email);
    expect(everything).not.toContain("4242424242424242");
    expect(everything).not.toMatch(/sk_(test|live)_/);
  }, 120_000);

  it("every log line written inside a request carries its trace id", async () => {
    // A malformed escape in the path: the server logs a warn line inside the request's span.
    const response = await fetch(`http://127.0.0.1:${server.port}/api/payment/cs_%zzotel`, {
      headers: { authorization: `Bearer ${server.secretKey}` },
    });
    expect(response.status).toBeLessThan(500);
    const requestSpan = await waitForSpan((s) => s.name === "GET /api/payment/:session_id", "for the GET");
    const deadline = Date.now() + 10_000;
    let line: Record<string, unknown> | undefined;
    while (!line && Date.now() < deadline) {
      line = server
        .stderr()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => String(l.message).startsWith("malformed percent-encoding"));
      if (!line) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(line).toMatchObject({ level: "warn", traceId: requestSpan.traceId });
    expect(String(line?.spanId)).toMatch(/^[0-9a-f]{16}$/);
  }, 60_000);

  it("continues a caller's W3C trace (traceparent), and ignores a malformed one", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const parentId = "00f067aa0ba902b7";
    const get = (traceparent: string) =>
      fetch(`http://127.0.0.1:${server.port}/api/payment/cs_traceparent`, {
        headers: { authorization: `Bearer ${server.secretKey}`, traceparent },
      });
    expect((await get(`00-${traceId}-${parentId}-01`)).status).toBe(404);
    const child = await waitForSpan((s) => s.traceId === traceId, "in the caller's trace");
    expect(child).toMatchObject({ name: "GET /api/payment/:session_id", parentSpanId: parentId });

    const before = new Set(spans.map((s) => s.spanId));
    expect((await get(`00-${"0".repeat(32)}-${parentId}-01`)).status).toBe(404);
    const fresh = await waitForSpan(
      (s) => !before.has(s.spanId) && s.name === "GET /api/payment/:session_id",
      "for the malformed traceparent's request",
    );
    expect(fresh.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh.traceId).not.toBe("0".repeat(32));
    expect(fresh.parentSpanId ?? "").toBe("");
  }, 60_000);
});
