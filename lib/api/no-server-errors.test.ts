import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { isErrorMessage, isFieldMap } from "@/test/api-assertions";
import { api, createTestBusiness, type ApiResult } from "@/test/helpers";
import { anyString, anyValueWith, fuzzRuns } from "@/test/fuzz";

// Property tests: whatever arrives, the answer is a contract answer, never a 500.
const numRuns = fuzzRuns(200);

type Biz = Awaited<ReturnType<typeof createTestBusiness>>;
let biz: Biz;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  // Hundreds of creations in a few seconds: lift the rate limits for this file.
  for (const name of ["RATE_LIMIT_SESSION_PUBLIC", "RATE_LIMIT_SESSION_SECRET"]) {
    saved[name] = process.env[name];
    process.env[name] = "1000000";
  }
  resetEnv();
  biz = await createTestBusiness();
});

afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnv();
});

const anyValue = anyValueWith("USD", "usd", 99, 100, "stripe_credit", "sandbox_bitcoin");

const item = fc.record(
  {
    name: fc.oneof(fc.constant("Thing"), anyString, anyValue),
    quantity: fc.oneof(fc.integer({ min: -2, max: 5 }), anyValue),
    price: fc.oneof(fc.integer({ min: -5, max: 5000 }), anyValue),
  },
  { requiredKeys: [] },
);
const fieldValues: Record<string, fc.Arbitrary<unknown>> = {
  amount: fc.oneof(fc.integer({ min: -10, max: 10_000 }), anyValue),
  currency: fc.oneof(fc.constantFrom("USD", "usd", "EUR", "US"), anyValue),
  customer: fc.oneof(
    anyValue,
    fc.record({ id: anyValue, email: fc.oneof(fc.constant("a@b.co"), anyValue), name: anyValue, phone: anyValue }, { requiredKeys: [] }),
  ),
  order_id: anyValue,
  items: fc.oneof(fc.array(item, { maxLength: 4 }), anyValue),
  description: anyValue,
  paymentMethodId: fc.oneof(fc.constantFrom("stripe_credit", "stripe_apple_pay", "sandbox_pix_br", "nope", ""), anyValue),
  ip: fc.oneof(fc.constantFrom("198.51.100.7", "::1", "not-an-ip"), anyValue),
  metadata: fc.oneof(fc.dictionary(anyString, anyValue, { maxKeys: 5 }), anyValue),
  email: fc.oneof(fc.constant("buyer@example.com"), anyValue),
  subscription: fc.oneof(
    fc.record(
      {
        interval: fc.oneof(fc.constantFrom("day", "week", "month", "year"), anyValue),
        interval_count: fc.oneof(fc.integer({ min: -5, max: 2000 }), anyValue),
      },
      { requiredKeys: [] },
    ),
    anyValue,
  ),
};

let bodies = 0;

/** A valid body with up to three fields dropped or replaced by anything. */
const mutatedBody = fc
  .subarray(Object.keys(fieldValues), { maxLength: 3 })
  .chain((fields) =>
    fc.tuple(...fields.map((field) => fc.option(fieldValues[field]!, { freq: 4 }).map((value) => [field, value] as const))),
  )
  .map((changes) => {
    const body: Record<string, unknown> = {
      amount: 2500,
      currency: "USD",
      customer: "cus_1",
      order_id: `prop-${process.pid}-${(bodies += 1)}`,
      items: [{ name: "Thing", quantity: 1, price: 2500 }],
    };
    // fc.option's null stands for "drop the field".
    for (const [field, value] of changes) {
      if (value === null) delete body[field];
      else body[field] = value;
    }
    return body;
  });

const paymentMethodNotFound = { error: "Payment method not found" };

/** The answers POST /session may give. */
function expectContractAnswer(res: ApiResult<unknown>, sent: string) {
  const context = `${res.status} ${JSON.stringify(res.body)} for ${sent.slice(0, 500)}`;
  expect(res.status, context).not.toBe(500);
  expect([201, 400, 403], context).toContain(res.status);
  if (res.status === 201) expect((res.body as { session_id: string }).session_id, context).toMatch(/^cs_/);
  if (res.status === 403) expect(res.body, context).toEqual({ error: "subscription_requires_secret_key" });
  if (res.status === 400) {
    const ok = isFieldMap(res.body) || isErrorMessage(res.body) || JSON.stringify(res.body) === JSON.stringify(paymentMethodNotFound);
    expect(ok, context).toBe(true);
  }
}

describe("no input produces a 500", () => {
  it("POST /session with random JSON values (and random text) as the body", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.jsonValue().map((v) => JSON.stringify(v)), anyString),
        fc.boolean(),
        async (rawBody, secret) => {
          const res = await api("POST", "/session", {
            key: secret ? biz.secretKey : biz.publicKey,
            rawBody,
            headers: { "content-type": "application/json" },
          });
          expectContractAnswer(res, rawBody);
        },
      ),
      { numRuns },
    );
  });

  it("POST /session with the session fields mutated", async () => {
    let created = 0;
    await fc.assert(
      fc.asyncProperty(mutatedBody, fc.boolean(), async (body, secret) => {
        const res = await api("POST", "/session", { key: secret ? biz.secretKey : biz.publicKey, body });
        expectContractAnswer(res, JSON.stringify(body));
        if (res.status === 201) created += 1;
      }),
      { numRuns },
    );
    // The generator keeps enough bodies valid to exercise the storing path too.
    expect(created).toBeGreaterThan(0);
  });

  it("GET /payments/methods with random query strings", async () => {
    const paramName = fc.oneof(fc.constantFrom("countries", "currencies", "is_company"), anyString);
    const codeList = fc
      .array(fc.oneof(fc.stringMatching(/^[A-Za-z]{2,3}$/), anyString), { maxLength: 6 })
      .map((codes) => codes.join(","));
    const paramValue = fc.oneof(codeList, anyString, fc.constantFrom("true", "false", "1", "0", "", "TRUE"));
    const encoded = fc
      .array(fc.tuple(paramName, paramValue), { maxLength: 4 })
      .map((pairs) => new URLSearchParams(pairs).toString());
    const raw = fc.string({ unit: "grapheme-ascii", maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(fc.oneof(encoded, raw), fc.boolean(), async (query, secret) => {
        const res = await api("GET", `/payments/methods?${query}`, { key: secret ? biz.secretKey : biz.publicKey });
        const context = `${res.status} ${JSON.stringify(res.body)} for ?${query}`;
        expect([200, 400], context).toContain(res.status);
        if (res.status === 400) expect(isFieldMap(res.body), context).toBe(true);
        else expect(typeof res.body, context).toBe("object");
      }),
      { numRuns },
    );
  });
});
