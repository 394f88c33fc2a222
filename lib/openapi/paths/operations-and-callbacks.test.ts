import { describe, expect, it } from "vitest";
import { dispatch, routes } from "@/lib/api/routes";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { newSession, paymentsBusiness, withSandboxProviders } from "@/lib/payments/testing/payment-fixtures";
import { api, createTestBusiness } from "@/test/helpers";
import { checkResponseAgainstDocument } from "@/test/openapi-responses";
import { buildOpenApiDocument } from "../document";

withSandboxProviders();
verifyLedgerAfterEach();

type Operation = {
  tags?: string[];
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
};

const document = buildOpenApiDocument();
const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  (["get", "post"] as const)
    .filter((method) => item[method])
    .map((method) => ({ path, method, operation: item[method] as unknown as Operation })),
);
const schemes = (operation: Operation) => (operation.security ?? []).flatMap((s) => Object.keys(s)).sort();

describe("the OpenAPI document: payouts, webhook operations, API keys, sandbox, provider callbacks", () => {
  it("marks every provider callback as such: its own tag, no credential, never called by merchants", () => {
    const callbacks = operations.filter(({ path }) =>
      /^\/(payment\/(stripe|sandbox)\/|sandbox-provider\/)/.test(path),
    );
    expect(callbacks.map(({ method, path }) => `${method} ${path}`).sort()).toEqual([
      "get /payment/stripe/return",
      "get /sandbox-provider/3ds/{attempt_id}",
      "get /sandbox-provider/pay/{payment_id}",
      "post /payment/sandbox/webhook",
      "post /payment/stripe/webhook",
      "post /sandbox-provider/3ds/{attempt_id}",
      "post /sandbox-provider/pay/{payment_id}",
    ]);
    for (const { operation } of callbacks) {
      expect(operation.tags).toEqual(["Provider callbacks"]);
      expect(operation.security).toEqual([]);
      expect(operation.description).toContain("merchants never call it");
    }
    const pages = callbacks.filter(({ path }) => path.startsWith("/sandbox-provider/"));
    for (const { method, operation } of pages)
      expect(
        Object.keys(
          (operation.responses[method === "get" ? "200" : "400"] as never as { content: object }).content,
        ),
      ).toEqual(["text/html"]);
  });

  it("puts the payout user's routes behind the payout hash and every other payout route behind the secret key", () => {
    const payouts = operations.filter(({ path }) => path.startsWith("/payout/"));
    expect(payouts).toHaveLength(18);
    for (const { path, method, operation } of payouts) {
      const expected = path.startsWith("/payout/operations")
        ? ["payoutHash", "payoutHashQuery"]
        : ["secretKey"];
      expect(schemes(operation), `${method} ${path}`).toEqual(expected);
      expect(operation.responses["401"], `${method} ${path}`).toBeDefined();
    }
  });

  it("documents Idempotency-Key and Idempotent-Replayed together on every POST but the provider callbacks", () => {
    const mine = operations.filter(
      ({ path, method }) => method === "post" && !/^\/(payment\/(stripe|sandbox)\/|sandbox-provider\/)/.test(path),
    );
    const keyed = mine.filter(({ operation }) =>
      operation.parameters?.some((p) => p.name === "Idempotency-Key"),
    );
    expect(mine.filter((o) => !keyed.includes(o)).map((o) => o.path)).toEqual([]);
    const callback = /^\/(payment\/(stripe|sandbox)\/|sandbox-provider\/)/;
    expect(keyed.length).toBe(routes.filter((r) => r.method === "POST" && !callback.test(r.pattern)).length);
    for (const { path, operation } of keyed) {
      const success = Object.entries(operation.responses).filter(([status]) => status.startsWith("2"));
      expect(success.length, path).toBeGreaterThan(0);
      for (const [status, response] of success)
        expect(response.headers?.["Idempotent-Replayed"], `${path} ${status}`).toBeDefined();
    }
  });
});

/** A response through the router, checked against the document like api() does, HTML included. */
async function call(url: string, init: RequestInit = {}) {
  const request = new Request(url.startsWith("http") ? url : `http://kassa.test/api${url}`, init);
  const response = await dispatch(request, "/api");
  const text = await response.text();
  const type = response.headers.get("content-type");
  const body: unknown = type?.startsWith("application/json") ? JSON.parse(text) : text;
  checkResponseAgainstDocument(
    request.method,
    new URL(request.url).pathname.replace(/^\/api/, ""),
    response.status,
    type,
    body,
  );
  return { status: response.status, type, body, location: response.headers.get("location") };
}

const form = (body: string): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body,
});

describe("provider callbacks answer what the document says", () => {
  it("the sandbox provider's page: HTML, a 400 page without a choice, 303 back to checkout, a 409 page once closed, JSON 404", async () => {
    const biz = await paymentsBusiness();
    const created = await newSession(biz, { paymentMethodId: "sandbox_bitcoin" });
    const page = created.redirect_url!;
    expect(await call(page)).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/html/) });
    expect(await call(page, form("action=dance"))).toMatchObject({
      status: 400,
      type: expect.stringMatching(/^text\/html/),
    });
    const paid = await call(page, form("action=pay"));
    expect(paid.status).toBe(303);
    expect(paid.location).toMatch(new RegExp(`/checkout/${created.session_id}$`));
    expect(await call(page, form("action=pay"))).toMatchObject({
      status: 409,
      type: expect.stringMatching(/^text\/html/),
    });
    expect(await call("/sandbox-provider/pay/sbxpay_nope")).toMatchObject({
      status: 404,
      body: { error: "sandbox_payment_not_found", message: expect.any(String) },
    });
    expect(await call("/sandbox-provider/3ds/pat_nope", form("outcome=succeed"))).toMatchObject({
      status: 404,
      body: { error: "challenge_not_found", message: expect.any(String) },
    });
  });

  it("inbound events without a signature are a 400; the 3-D Secure return of an unknown session a 404", async () => {
    for (const path of ["/payment/stripe/webhook", "/payment/sandbox/webhook"])
      expect(
        await call(path, { method: "POST", body: JSON.stringify({ id: "evt_1", type: "x" }) }),
      ).toMatchObject({
        status: 400,
        body: { error: "invalid_signature" },
      });
    expect(await call("/payment/stripe/return?session_id=cs_nope")).toMatchObject({
      status: 404,
      body: { error: "Payment not found" },
    });
  });
});

describe("POST /sandbox/payout-balance", () => {
  it("does not keep an invalid amount's 400 under the Idempotency-Key: the corrected retry is credited once", async () => {
    const biz = await createTestBusiness();
    const headers = { "idempotency-key": "fund-once" };
    for (const amount of [0, 1.5, "10", null, 100_000_001]) {
      const bad = await api("POST", "/sandbox/payout-balance", {
        key: biz.secretKey,
        body: { amount },
        headers,
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        amount: ["amount must be an integer number of cents between 1 and 100000000"],
      });
    }
    const first = await api("POST", "/sandbox/payout-balance", {
      key: biz.secretKey,
      body: { amount: 700 },
      headers,
    });
    expect(first).toMatchObject({ status: 200, body: { payout_balance: 700 } });
    const replay = await api("POST", "/sandbox/payout-balance", {
      key: biz.secretKey,
      body: { amount: 700 },
      headers,
    });
    expect(replay).toMatchObject({ status: 200, body: { payout_balance: 700 } });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
  });
});
