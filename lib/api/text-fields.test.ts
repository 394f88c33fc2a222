import { describe, expect, it } from "vitest";
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
