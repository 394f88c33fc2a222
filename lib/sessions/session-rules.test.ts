import { and, eq, inArray } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { businessPaymentMethods, sessions } from "@/db/schema";
import { stopSandboxEmulator } from "@/lib/providers/stripe/sandbox-emulator";
import { countSessions, expectFieldErrors } from "@/test/api-assertions";
import { api, createTestBusiness, sessionBody, testDb, uniqueName } from "@/test/helpers";

// Interface rules of POST /session that sit between two others: the case of order ids, and which
// error a plan session gets when several apply.

// Plan sessions check the business's Stripe endpoint: the emulator starts on first use.
afterAll(() => stopSandboxEmulator());

type Biz = Awaited<ReturnType<typeof createTestBusiness>>;
const post = (biz: Biz, body: unknown, key = biz.secretKey) => api("POST", "/session", { key, body });
const plan = (overrides: Record<string, unknown> = {}) =>
  sessionBody({ subscription: { interval: "month" }, ...overrides });

async function orderIdsOf(biz: Biz) {
  const rows = await testDb()
    .select({ orderId: sessions.orderId })
    .from(sessions)
    .where(eq(sessions.businessId, biz.business.id));
  return rows.map((r) => r.orderId).sort();
}

async function setMethods(biz: Biz, methodIds: string[], enabled: boolean) {
  await testDb()
    .update(businessPaymentMethods)
    .set({ enabled })
    .where(
      and(
        eq(businessPaymentMethods.businessId, biz.business.id),
        inArray(businessPaymentMethods.methodId, methodIds),
      ),
    );
}

describe("POST /session: order_id is compared exactly, case included", () => {
  // The interface makes order_id unique per business and says nothing of case (unlike the payout
  // e-mail, which it makes case-insensitive): `ORD-1` and `ord-1` are two order ids.
  it("ORD-x and ord-x are two orders; each is still unique as written", async () => {
    const biz = await createTestBusiness();
    const stem = uniqueName("Case").replaceAll("-", "_");
    const upper = `${stem.toUpperCase()}-X`;
    const lower = `${stem.toLowerCase()}-x`;
    expect((await post(biz, sessionBody({ order_id: upper }))).status).toBe(201);
    expect((await post(biz, sessionBody({ order_id: lower }))).status).toBe(201);
    expectFieldErrors(await post(biz, sessionBody({ order_id: upper })), ["order_id"]);
    expectFieldErrors(await post(biz, sessionBody({ order_id: lower })), ["order_id"]);
    expect(await orderIdsOf(biz)).toEqual([upper, lower].sort());
  });

  it("a plan's renewal ids {order_id}-{cycle} are reserved as written, not in another case", async () => {
    const biz = await createTestBusiness();
    const stem = `${uniqueName("Plan").replaceAll("-", "_")}_Ab`;
    expect((await post(biz, plan({ order_id: stem }))).status).toBe(201);
    expectFieldErrors(await post(biz, sessionBody({ order_id: `${stem}-2` })), ["order_id"]);
    for (const other of [`${stem.toLowerCase()}-2`, `${stem.toUpperCase()}-2`])
      expect((await post(biz, sessionBody({ order_id: other }))).status, other).toBe(201);
    // And a plan may start on an order id whose renewal ids are used only in another case.
    const late = `${uniqueName("Late").replaceAll("-", "_")}_Ab`;
    expect((await post(biz, sessionBody({ order_id: `${late.toLowerCase()}-2` }))).status).toBe(201);
    expect((await post(biz, plan({ order_id: late }))).status).toBe(201);
    expectFieldErrors(await post(biz, sessionBody({ order_id: `${late}-2` })), ["order_id"]);
  });
});

describe("POST /session: a plan when the card method is off, and which error wins", () => {
  it("card off but Apple Pay or Google Pay on: the plan is accepted (the error is for all three off)", async () => {
    const biz = await createTestBusiness();
    await setMethods(biz, ["stripe_credit"], false);
    const res = await post(biz, plan());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it("forcing the disabled card: Payment method not found, not the subscription-method error", async () => {
    const biz = await createTestBusiness();
    await setMethods(biz, ["stripe_credit"], false);
    const res = await post(biz, plan({ paymentMethodId: "stripe_credit" }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Payment method not found" });
    expect(await countSessions(biz.business.id)).toBe(0);
  });

  it("card, Apple Pay and Google Pay off: the key kind first, then the fields, the forced method, the plan's methods", async () => {
    const biz = await createTestBusiness();
    await setMethods(biz, ["stripe_credit", "stripe_apple_pay", "stripe_google_pay"], false);
    // A public key: 403 subscription_requires_secret_key, whatever else is wrong.
    for (const body of [plan(), plan({ paymentMethodId: "stripe_credit" }), plan({ amount: 99 })]) {
      const res = await post(biz, body, biz.publicKey);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body).toEqual({ error: "subscription_requires_secret_key" });
    }
    // Invalid fields: the field map.
    expectFieldErrors(await post(biz, plan({ amount: 99, items: [{ name: "x", quantity: 1, price: 99 }] })), [
      "amount",
    ]);
    expectFieldErrors(await post(biz, plan({ paymentMethodId: "stripe_credit", currency: "EUR" })), [
      "currency",
    ]);
    // A forced method that is off or unknown: Payment method not found.
    for (const paymentMethodId of ["stripe_credit", "stripe_apple_pay", "nope"]) {
      const res = await post(biz, plan({ paymentMethodId }));
      expect(res.status, paymentMethodId).toBe(400);
      expect(res.body, paymentMethodId).toEqual({ error: "Payment method not found" });
    }
    // A forced method that is on but cannot bill a plan, or none forced: no method supports it.
    for (const body of [plan({ paymentMethodId: "sandbox_bitcoin" }), plan()]) {
      const res = await post(biz, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("no_subscription_method");
    }
    expect(await countSessions(biz.business.id)).toBe(0);
  });
});
