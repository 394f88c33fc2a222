import { beforeAll, describe, expect, it } from "vitest";
import { dispatch } from "@/lib/api/routes";
import { resetEnv } from "@/lib/env";
import { clientIpHeader } from "@/lib/http/client-ip";
import { createTestBusiness, sessionBody } from "@/test/helpers";

type Biz = Awaited<ReturnType<typeof createTestBusiness>>;
let biz: Biz;
beforeAll(async () => {
  biz = await createTestBusiness();
});

const origin = "https://shop.example";

/** A request as a browser on another origin sends it. */
function send(method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers = new Headers({ origin, [clientIpHeader]: "203.0.113.77", ...options.headers });
  if (options.key) headers.set("authorization", `Bearer ${options.key}`);
  if (options.body !== undefined) headers.set("content-type", "application/json");
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return dispatch(new Request(`http://kassa.test/api${path}`, { method, headers, body }), "/api");
}

function preflight(path: string, method: string) {
  return send("OPTIONS", path, {
    headers: {
      "access-control-request-method": method,
      "access-control-request-headers": "authorization, content-type, idempotency-key",
    },
  });
}

describe("CORS on the public-key endpoints", () => {
  it.each([
    ["/session", "POST"],
    ["/payments/methods", "GET"],
  ])("answers the preflight of %s with 204 and what a browser may send", async (path, method) => {
    const res = await preflight(path, method);
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toBe(`${method}, OPTIONS`);
    expect(res.headers.get("access-control-allow-headers")).toBe("Authorization, Content-Type, Idempotency-Key");
    expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(await res.text()).toBe("");
  });

  it("allows the actual responses, successes and errors alike, with Retry-After readable", async () => {
    const created = await send("POST", "/session", { key: biz.publicKey, body: sessionBody() });
    const methods = await send("GET", "/payments/methods", { key: biz.publicKey });
    const unauthorized = await send("POST", "/session", { key: "pk_test_nope", body: sessionBody() });
    const invalid = await send("POST", "/session", { key: biz.publicKey, body: sessionBody({ amount: -1 }) });
    expect([created.status, methods.status, unauthorized.status, invalid.status]).toEqual([201, 200, 401, 400]);
    for (const res of [created, methods, unauthorized, invalid]) {
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-expose-headers")).toContain("Retry-After");
    }
    expect(await unauthorized.json()).toMatchObject({ error: expect.any(String) });
  });

  it("allows a 429 and exposes its Retry-After", async () => {
    const own = await createTestBusiness();
    const previous = process.env.RATE_LIMIT_SESSION_PUBLIC;
    process.env.RATE_LIMIT_SESSION_PUBLIC = "1";
    resetEnv();
    try {
      const ip = { [clientIpHeader]: "203.0.113.201" };
      expect((await send("POST", "/session", { key: own.publicKey, body: sessionBody(), headers: ip })).status).toBe(201);
      const limited = await send("POST", "/session", { key: own.publicKey, body: sessionBody(), headers: ip });
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(limited.headers.get("access-control-allow-origin")).toBe("*");
      expect(limited.headers.get("access-control-expose-headers")).toContain("Retry-After");
    } finally {
      if (previous === undefined) delete process.env.RATE_LIMIT_SESSION_PUBLIC;
      else process.env.RATE_LIMIT_SESSION_PUBLIC = previous;
      resetEnv();
    }
  });

  it("gives a secret-key request no allowance, so a browser hides the answer", async () => {
    const res = await send("POST", "/session", { key: biz.secretKey, body: sessionBody() });
    expect(res.status).toBe(201);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const methods = await send("GET", "/payments/methods", { key: biz.secretKey });
    expect(methods.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("no CORS on secret-only endpoints", () => {
  it.each([
    ["/balance", "GET"],
    ["/payment/ses_x", "GET"],
    ["/payout/create", "POST"],
    ["/api-keys", "GET"],
  ])("refuses the preflight of %s without any allowance", async (path, method) => {
    const res = await preflight(path, method);
    expect(res.status).toBe(405);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(await res.json()).toMatchObject({ error: "method_not_allowed" });
  });

  it("sends no allowance on their responses, even to a public key", async () => {
    for (const key of [biz.secretKey, biz.publicKey]) {
      const res = await send("GET", "/balance", { key });
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  it("keeps a preflight to an unknown path a plain 404", async () => {
    const res = await preflight("/nope", "GET");
    expect(res.status).toBe(404);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});
