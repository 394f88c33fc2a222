import { metrics } from "@/lib/metrics/registry";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "@/db/client";
import { createRouter, routes } from "@/lib/api/routes";
import { installDatabase } from "@/lib/db";
import { ValidationError } from "@/lib/errors";
import { apiHandler } from "@/lib/api/handler";
import { api, createTestBusiness, sessionBody, testHandle } from "@/test/helpers";

type Biz = Awaited<ReturnType<typeof createTestBusiness>>;
let biz: Biz;
beforeAll(async () => {
  biz = await createTestBusiness();
});

/** Captures what the app writes to stderr (where error logs go) instead of printing it. */
function captureStderr() {
  const lines: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split("\n").filter(Boolean));
    return true;
  });
  return {
    lines,
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

// A copy of the router with test-only endpoints whose service fails.
const testRouter = createRouter([
  ...routes,
  {
    method: "GET",
    pattern: "/__test/boom",
    handler: apiHandler({
      auth: "secret",
      handle: async () => {
        throw new Error("service exploded");
      },
    }),
  },
  {
    method: "GET",
    pattern: "/__test/domain",
    handler: apiHandler({
      auth: "none",
      handle: async () => {
        throw ValidationError.field("thing", "thing is wrong");
      },
    }),
  },
]);

const call = (path: string, headers: Record<string, string> = {}) =>
  testRouter(
    new Request(`http://kassa.test/api${path}`, {
      headers: { authorization: `Bearer ${biz.secretKey}`, ...headers },
    }),
  );

describe("unexpected failures", () => {
  it("a service throwing a plain Error answers 500 exactly, with x-request-id, logged with that id", async () => {
    const stderr = captureStderr();
    const res = await call("/__test/boom");
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "Internal server error" });
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const logged = stderr.entries().filter((e) => e.requestId === requestId);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: "error", message: "request failed", method: "GET" });
    expect((logged[0]!.error as { message: string }).message).toBe("service exploded");
    // The log never carries the caller's key.
    expect(stderr.lines.join("\n")).not.toContain(biz.secretKey);
  });

  it("keeps the caller's x-request-id, in the response and in the log", async () => {
    const stderr = captureStderr();
    const res = await call("/__test/boom", { "x-request-id": "req-from-client-42" });
    expect(res.status).toBe(500);
    expect(res.headers.get("x-request-id")).toBe("req-from-client-42");
    expect(stderr.entries().some((e) => e.requestId === "req-from-client-42")).toBe(true);
  });

  it("a domain error is mapped, not logged as a failure", async () => {
    const stderr = captureStderr();
    const res = await call("/__test/domain");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ thing: ["thing is wrong"] });
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(stderr.lines).toEqual([]);
  });

  // Postgres: the test database's own handle, closed. PGlite (a second embedded database costs
  // seconds to start): a server that refuses connections. Either way the query fails under the handler.
  it("a database failing under the handlers answers 503 service_unavailable with Retry-After on every endpoint", async () => {
    const url = (testHandle() as { url?: string }).url;
    const broken = await openDatabase({
      kind: "postgres",
      url: url ?? "postgres://kassa@127.0.0.1:1/unreachable",
      max: 1,
    });
    if (url) await broken.close();
    const stderr = captureStderr();
    const faults = async () =>
      (await metrics().databaseErrors.get()).values.find((v) => v.labels.kind === "unavailable")?.value ?? 0;
    const faultsBefore = await faults();
    installDatabase(broken);
    try {
      for (const [method, path, body] of [
        ["POST", "/session", sessionBody()],
        ["GET", "/payment/cs_01ZZZZZZZZZZZZZZZZZZZZZZZZ", undefined],
        ["GET", "/payments/methods", undefined],
        ["GET", "/balance", undefined],
      ] as const) {
        const res = await api(method, path, { key: biz.secretKey, body });
        expect(res.status, `${method} ${path}`).toBe(503);
        expect(res.body).toEqual({
          error: "service_unavailable",
          message: expect.stringMatching(/try again/),
        });
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
        const requestId = res.headers.get("x-request-id");
        expect(requestId).toBeTruthy();
        // A classified fault (logged at warn, under the tests' LOG_LEVEL=error), not an unexpected failure.
        expect(
          stderr.entries().some((e) => e.requestId === requestId && e.message === "request failed"),
        ).toBe(false);
      }
    } finally {
      installDatabase(testHandle());
      if (!url) await broken.close();
    }
    // Each one counted by class, for the KassaDatabaseErrors alert.
    expect(await faults()).toBeGreaterThanOrEqual(faultsBefore + 3);
    expect((await api("GET", "/balance", { key: biz.secretKey })).status).toBe(200);
  });
});

describe("router", () => {
  it("an unknown path answers 404 and a known path with another method 405, both as {error, message}", async () => {
    const missing = await api("GET", "/nope", { key: biz.secretKey });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "not_found", message: expect.any(String) });
    const wrongMethod = await api("GET", "/session", { key: biz.secretKey });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body).toEqual({ error: "method_not_allowed", message: expect.any(String) });
  });

  it("tolerates a trailing slash", async () => {
    expect((await api("GET", "/balance/", { key: biz.secretKey })).status).toBe(200);
  });
});
