import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { dispatch } from "@/lib/api/routes";
import { resetEnv } from "@/lib/env";
import { clientIpHeader } from "@/lib/http/client-ip";
import { isFieldMap } from "@/test/api-assertions";
import { api, createTestBusiness, sessionBody } from "@/test/helpers";
import type * as KassaModule from "./browser/kassa";
import { buildSdk } from "./build-sdk";

// The SDK as merchants' pages get it: the built ES module, its fetch answered by the API's own router.
type Sdk = typeof KassaModule;
type Failure = InstanceType<Sdk["KassaError"]>;

/** What a call that must fail rejected with. */
async function failure(call: Promise<unknown>): Promise<Failure> {
  const outcome = await call.then(
    (value) => ({ resolved: value }),
    (error: unknown) => ({ rejected: error }),
  );
  if (!("rejected" in outcome)) throw new Error(`expected a failure, got ${JSON.stringify(outcome.resolved)}`);
  return outcome.rejected as Failure;
}
let sdk: Sdk;
let biz: Awaited<ReturnType<typeof createTestBusiness>>;
const requests: { url: string; headers: Headers }[] = [];
const baseUrl = "http://kassa.test/api";

beforeAll(async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "kassa-sdk-"));
  const file = path.join(dir, "kassa.mjs");
  await fs.writeFile(file, (await buildSdk({ apiBase: "/api", checkoutBase: "/checkout" }))["kassa.js"]);
  sdk = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Sdk;
  biz = await createTestBusiness();
});

function serveFromRouter(ip = "198.51.100.7") {
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    const request = new Request(url, init);
    // What the server sets from the socket: the payer's own address.
    request.headers.set(clientIpHeader, ip);
    requests.push({ url, headers: request.headers });
    return dispatch(request, "/api");
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  requests.length = 0;
});

describe("Kassa.js against the API", () => {
  it("creates a session with the public key and knows its checkout page", async () => {
    serveFromRouter();
    const kassa = sdk.Kassa(biz.publicKey, { baseUrl });
    const body = sessionBody();
    const session = await kassa.createSession(body);
    expect(session.session_id).toMatch(/^cs_/);
    expect(session.checkout_url).toMatch(new RegExp(`/checkout/${session.session_id}$`));
    expect(requests[0]!.url).toBe(`${baseUrl}/session`);
    expect(requests[0]!.headers.get("authorization")).toBe(`Bearer ${biz.publicKey}`);
    expect(requests[0]!.headers.has("idempotency-key")).toBe(false);

    const stored = await api("GET", `/payment/${session.session_id}`, { key: biz.secretKey });
    expect(stored.status).toBe(200);
    expect(stored.body.amount).toBe(body.amount);

    // The answered checkout_url wins; a session the client did not create gets the derived one.
    expect(kassa.checkoutUrl(session.session_id)).toBe(session.checkout_url);
    expect(kassa.checkoutUrl("cs_other")).toBe("http://kassa.test/checkout/cs_other");
    const assign = vi.fn();
    vi.stubGlobal("location", { assign });
    kassa.redirectToCheckout(session.session_id);
    expect(assign).toHaveBeenCalledWith(session.checkout_url);
  });

  it("sends an idempotency key: the retry gets the first session", async () => {
    serveFromRouter();
    const kassa = sdk.Kassa(biz.publicKey, { baseUrl });
    const body = sessionBody();
    const first = await kassa.createSession(body, { idempotencyKey: `retry-${body.order_id}` });
    const again = await kassa.createSession(body, { idempotencyKey: `retry-${body.order_id}` });
    expect(requests[1]!.headers.get("idempotency-key")).toBe(`retry-${body.order_id}`);
    expect(again.session_id).toBe(first.session_id);
  });

  it("surfaces a validation failure as a KassaError carrying the field map", async () => {
    serveFromRouter();
    const kassa = sdk.Kassa(biz.publicKey, { baseUrl });
    const error = await failure(kassa.createSession(sessionBody({ amount: 50, order_id: undefined })));
    expect(error).toBeInstanceOf(sdk.KassaError);
    expect(error.status).toBe(400);
    expect(isFieldMap(error.body)).toBe(true);
    expect(error.fields).toBe(error.body);
    expect(Object.keys(error.fields!)).toEqual(expect.arrayContaining(["amount", "order_id"]));
    expect(error.code).toBeNull();
    expect(error.message).toContain("amount:");
  });

  it("surfaces an unknown key as the interface's 401 body", async () => {
    serveFromRouter();
    const error = await failure(sdk.Kassa("pk_test_unknown", { baseUrl }).createSession(sessionBody()));
    expect(error).toMatchObject({ status: 401, body: { error: "Unauthorized" }, code: "Unauthorized", fields: null });
  });

  it("refuses a secret key before any request", () => {
    serveFromRouter();
    expect(() => sdk.Kassa(biz.secretKey, { baseUrl })).toThrow(TypeError);
    expect(requests).toHaveLength(0);
  });

  it("builds a payment link's url with the payer's quantity, and refuses anything else", () => {
    const kassa = sdk.Kassa(biz.publicKey, { baseUrl });
    expect(kassa.paymentLinkUrl("https://pay.example.com/l/h7Kq2ZxP9aLm", { quantity: 3 })).toBe(
      "https://pay.example.com/l/h7Kq2ZxP9aLm?quantity=3",
    );
    expect(kassa.paymentLinkUrl("https://pay.example.com/l/h7Kq2ZxP9aLm")).toBe("https://pay.example.com/l/h7Kq2ZxP9aLm");
    expect(() => kassa.paymentLinkUrl("https://pay.example.com/checkout/cs_1")).toThrow(TypeError);
    expect(() => kassa.paymentLinkUrl("https://pay.example.com/l/abc", { quantity: 1.5 })).toThrow(TypeError);
  });

  it("lists the payment methods with the filters as the API answers them", async () => {
    serveFromRouter();
    const kassa = sdk.Kassa(biz.publicKey, { baseUrl });
    const methods = await kassa.listMethods({ countries: ["US", "BR"], currencies: ["USD"], is_company: true });
    expect(requests[0]!.url).toBe(`${baseUrl}/payments/methods?countries=US%2CBR&currencies=USD&is_company=true`);
    const direct = await api("GET", "/payments/methods?countries=US,BR&currencies=USD&is_company=true", { key: biz.publicKey });
    expect(methods).toEqual(direct.body);
    expect(Object.keys(methods).length).toBeGreaterThan(0);
    expect(await kassa.listMethods()).toEqual((await api("GET", "/payments/methods", { key: biz.publicKey })).body);

    const refused = await failure(kassa.listMethods({ countries: ["U1"] }));
    expect(refused).toBeInstanceOf(sdk.KassaError);
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.fields!)).toEqual(["countries"]);
  });

  it("reports an unreachable Kassa as a KassaNetworkError", async () => {
    vi.stubGlobal("fetch", () => Promise.reject(new TypeError("Failed to fetch")));
    const error = await failure(sdk.Kassa(biz.publicKey, { baseUrl }).listMethods());
    expect(error).toBeInstanceOf(sdk.KassaNetworkError);
    expect(error).toBeInstanceOf(sdk.KassaError);
    expect(error).toMatchObject({ status: 0, body: null, message: expect.stringContaining("Failed to fetch") });
  });

  it("reads Retry-After when an answer is not Kassa's JSON", async () => {
    vi.stubGlobal("fetch", async () => new Response("<h1>Slow down</h1>", { status: 429, headers: { "retry-after": "7" } }));
    const error = await failure(sdk.Kassa(biz.publicKey, { baseUrl }).listMethods());
    expect(error).toMatchObject({ status: 429, body: null, code: null, retryAfter: 7 });
  });
});

describe("Kassa.js when session creation is rate limited", () => {
  const saved = process.env.RATE_LIMIT_SESSION_PUBLIC;
  beforeAll(() => {
    process.env.RATE_LIMIT_SESSION_PUBLIC = "1";
    resetEnv();
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.RATE_LIMIT_SESSION_PUBLIC;
    else process.env.RATE_LIMIT_SESSION_PUBLIC = saved;
    resetEnv();
  });

  it("surfaces the 429 body and its retry_after", async () => {
    serveFromRouter("198.51.100.99");
    const kassa = sdk.Kassa(biz.publicKey, { baseUrl });
    await kassa.createSession(sessionBody());
    const error = await failure(kassa.createSession(sessionBody()));
    expect(error).toBeInstanceOf(sdk.KassaError);
    expect(error.status).toBe(429);
    expect(error.code).toBe("rate_limit_exceeded");
    expect(error.body).toMatchObject({ error: "rate_limit_exceeded", type: "ip" });
    const body = error.body as { retry_after: number };
    expect(error.retryAfter).toBe(body.retry_after);
    expect(error.retryAfter).toBeGreaterThanOrEqual(1);
  });
});
