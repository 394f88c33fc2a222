import { describe, expect, it } from "vitest";
import { unsafeTextField } from "@/lib/http/validation";
import { payoutBusiness, payoutUser } from "@/lib/payouts/payout-test-helpers";
import { api, createTestBusiness, sessionBody } from "@/test/helpers";

// One rule for every text field (lib/http/validation.ts): NUL or an unpaired surrogate is the
// field's 400, whatever the endpoint; never stored, never a 201 or a 500.
const unsafe = ["\ud800x", "x\udc00", "a\u0000b"];
const refusal = "must not contain NUL characters or unpaired surrogates";

describe("text fields refuse NUL and unpaired surrogates everywhere", () => {
  const sessionFields: [string, (v: string) => Record<string, unknown>, string][] = [
    ["customer", (v) => ({ customer: v }), "customer"],
    ["customer.id", (v) => ({ customer: { id: v } }), "customer"],
    ["customer.name", (v) => ({ customer: { id: "c", name: v } }), "customer"],
    ["customer.phone", (v) => ({ customer: { id: "c", phone: v } }), "customer"],
    ["order_id", (v) => ({ order_id: v }), "order_id"],
    ["items[].name", (v) => ({ items: [{ name: v, quantity: 1, price: 2500 }] }), "items"],
    ["description", (v) => ({ description: v }), "description"],
    ["paymentMethodId", (v) => ({ paymentMethodId: v }), "paymentMethodId"],
    ["metadata", (v) => ({ metadata: { note: v } }), "metadata"],
  ];

  it.each(sessionFields)("POST /session %s", async (_name, field, key) => {
    const { secretKey } = await createTestBusiness();
    for (const value of unsafe) {
      const res = await api("POST", "/session", {
        key: secretKey,
        body: sessionBody({ amount: 2500, ...field(value) }),
      });
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect(JSON.stringify(res.body[key]), JSON.stringify(value)).toContain(
        key === "metadata" ? "NUL characters or unpaired surrogates" : refusal,
      );
    }
  });

  it.each([
    ["payment_method", (v: string) => ({ payment_method: v })],
    ["user_agent", (v: string) => ({ user_agent: v })],
    ["customer_details.name", (v: string) => ({ customer_details: { name: v } })],
  ])("POST /sandbox/sessions/{id}/pay %s", async (field, body) => {
    const { secretKey } = await createTestBusiness();
    const created = await api<{ session_id: string }>("POST", "/session", {
      key: secretKey,
      body: sessionBody(),
    });
    expect(created.status).toBe(201);
    for (const value of unsafe) {
      const res = await api("POST", `/sandbox/sessions/${created.body.session_id}/pay`, {
        key: secretKey,
        body: body(value),
      });
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect(JSON.stringify(res.body[field.split(".")[0]!])).toContain(refusal);
    }
  });
});

// parseOrThrow applies the rule to whatever a schema keeps, so a schema that forgot it (as
// cancel_withdrawal's withdrawal_id once did: a 500 on PostgreSQL) still answers its field's 400;
// fields a schema drops stay ignored, whatever they hold.
describe("what a schema keeps is text the database can hold", () => {
  it("in a body field, whatever the schema says of it", async () => {
    const biz = await payoutBusiness(1_000_000);
    const user = await payoutUser(biz.secretKey, 10_000);
    for (const value of unsafe) {
      const res = await api("POST", `/payout/operations?payout_hash=${user.hash}`, {
        body: { action: "cancel_withdrawal", withdrawal_id: value },
      });
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect(res.body).toEqual({ withdrawal_id: [refusal] });
    }
    // However deep (JSON.parse takes 50,000 levels; the walk is iterative), the path cut short.
    const deep: unknown = JSON.parse(`${"[".repeat(50_000)}"\\u0000"${"]".repeat(50_000)}`);
    expect(unsafeTextField({ metadata: { x: deep } })).toEqual({
      metadata: [`x[0][0][0][0][0][0][0].…: ${refusal}`],
    });
    expect(unsafeTextField({ metadata: { x: JSON.parse(`${"[".repeat(50_000)}"ok"${"]".repeat(50_000)}`) } })).toBeNull();
  });

  it("a field no schema reads is ignored, as any unknown field", async () => {
    const biz = await payoutBusiness(1_000_000);
    const res = await api("POST", "/session", {
      key: biz.secretKey,
      body: { ...sessionBody({ items: [{ name: "ok", quantity: 1, price: 2500, extra: "a\u0000" }] }), "b\ud800": "c\u0000" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // Kept under an Idempotency-Key too: the body's fingerprint is a digest, not its text.
    const body = { ...sessionBody(), "b\ud800": "c\u0000" };
    const headers = { "Idempotency-Key": `unknown-field-${Date.now()}` };
    const first = await api("POST", "/session", { key: biz.secretKey, body, headers });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const replay = await api("POST", "/session", { key: biz.secretKey, body, headers });
    expect(replay.body).toEqual(first.body);
  });

  it("in a query parameter a schema reads; others are ignored", async () => {
    const biz = await payoutBusiness(1_000_000);
    const res = await api("GET", "/payout/withdrawals?payout_user=a%00b", { key: biz.secretKey });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ payout_user: [refusal] });
    expect((await api("GET", "/payout/withdrawals?a%00=%00", { key: biz.secretKey })).status).toBe(200);
    // Authentication still comes first: no key, the uniform 401.
    expect((await api("GET", "/payout/withdrawals?payout_user=a%00b")).status).toBe(401);
  });

  it("in a path segment: the id names nothing, so 404", async () => {
    const biz = await payoutBusiness(1_000_000);
    for (const path of ["/payment/a%00b", "/payout/withdrawals/%ED%A0%80", "/subscriptions/%00"]) {
      const res = await api("GET", path, { key: biz.secretKey });
      expect(res.status, path).toBe(404);
    }
  });
});
