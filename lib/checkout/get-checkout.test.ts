import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { businesses, businessProviders, payments } from "@/db/schema";
import { encrypt } from "@/lib/crypto";
import { newId } from "@/lib/ids";
import { stopSandboxEmulator } from "@/lib/providers/stripe/sandbox-emulator";
import { api, createTestBusiness, sessionBody, testDb } from "@/test/helpers";
import { getCheckoutPage, getCheckoutStatus, safeReturnUrl } from "./get-checkout";

// Subscription sessions check the business's Stripe endpoint: the emulator starts on first use.
afterAll(() => stopSandboxEmulator());

type Biz = Awaited<ReturnType<typeof createTestBusiness>>;

async function newSession(owner: Biz, overrides: Record<string, unknown> = {}) {
  const res = await api("POST", "/session", { key: owner.secretKey, body: sessionBody(overrides) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.session_id as string;
}

async function recordPayment(owner: Biz, sessionId: string, status: "failed" | "succeeded" | "processing") {
  await testDb().insert(payments).values({
    id: newId("payment"),
    sessionId,
    businessId: owner.business.id,
    status,
    amount: 2500,
    paymentMethod: "credit",
    provider: "stripe",
  });
}

describe("getCheckoutPage", () => {
  it("shows a sandbox session with every method of the business, prefilled from the session", async () => {
    const biz = await createTestBusiness({ returnUrl: "https://shop.example/thanks" });
    const id = await newSession(biz, { customer: { email: "ada@example.com", name: "Ada", phone: "+44 20 7946 0958" }, description: "Two shirts" });
    const page = await getCheckoutPage(testDb(), id);
    expect(page).toMatchObject({
      sessionId: id,
      merchant: biz.business.name,
      mode: "sandbox",
      returnUrl: "https://shop.example/thanks",
      description: "Two shirts",
      amount: 2500,
      currency: "USD",
      state: "open",
      prefill: { name: "Ada", email: "ada@example.com", phone: "+44 20 7946 0958" },
      stripePublishableKey: null,
    });
    expect(page!.methods.map((m) => m.id)).toEqual(["stripe_credit", "stripe_apple_pay", "stripe_google_pay", "sandbox_bitcoin", "sandbox_pix_br"]);
    expect(page!.methods.every((m) => m.total === 2500 && m.customerFee === 0)).toBe(true);
    expect(page!.methods.find((m) => m.id === "sandbox_pix_br")?.countries).toEqual(["BR"]);
    // Nothing the customer should not see.
    expect(JSON.stringify(page)).not.toMatch(/metadata|order_id|requiredIp|creatorIp/);
  });

  it("offers only the forced method", async () => {
    const biz = await createTestBusiness();
    const id = await newSession(biz, { paymentMethodId: "stripe_google_pay" });
    expect((await getCheckoutPage(testDb(), id))!.methods.map((m) => m.id)).toEqual(["stripe_google_pay"]);
  });

  it("adds the method's fees to the total when the business passes them on", async () => {
    const biz = await createTestBusiness({ passFeesToCustomer: true });
    const id = await newSession(biz);
    const card = (await getCheckoutPage(testDb(), id))!.methods.find((m) => m.id === "stripe_credit")!;
    expect(card.total).toBeGreaterThan(2500);
    expect(card.customerFee).toBe(card.total - 2500);
  });

  it("a subscription session offers only Stripe's card, Apple Pay and Google Pay, with its period and renewal price", async () => {
    const biz = await createTestBusiness({ passFeesToCustomer: true });
    await testDb().update(businesses).set({ fraudScreeningFeeCents: 30 }).where(eq(businesses.id, biz.business.id));
    const id = await newSession(biz, { subscription: { interval: "month", interval_count: 3 } });
    const page = (await getCheckoutPage(testDb(), id))!;
    expect(page.subscription).toEqual({ interval: "month", intervalCount: 3 });
    expect(page.methods.map((m) => m.id)).toEqual(["stripe_credit", "stripe_apple_pay", "stripe_google_pay"]);
    // Renewals are charged without the one-time screening fee (startSubscription's unit_amount).
    for (const m of page.methods) expect(m.renewalAmount).toBe(m.total - 30);
    expect((await getCheckoutPage(testDb(), await newSession(biz)))!.subscription).toBeNull();
  });

  it("a live business without Stripe connected offers nothing", async () => {
    const biz = await createTestBusiness({ mode: "live" });
    const id = await newSession(biz);
    const page = await getCheckoutPage(testDb(), id);
    expect(page).toMatchObject({ mode: "live", methods: [], stripePublishableKey: null });
  });

  it("a live business with a publishable key in its Stripe configuration gets Stripe's methods", async () => {
    const biz = await createTestBusiness({ mode: "live" });
    await testDb()
      .update(businessProviders)
      .set({ active: true, configEnc: encrypt(JSON.stringify({ secretKey: "sk_live_x", publishableKey: "pk_live_abcdefgh1234" })) })
      .where(and(eq(businessProviders.businessId, biz.business.id), eq(businessProviders.provider, "stripe")));
    const id = await newSession(biz);
    const page = await getCheckoutPage(testDb(), id);
    expect(page!.stripePublishableKey).toBe("pk_live_abcdefgh1234");
    expect(page!.methods.map((m) => m.id)).toEqual(["stripe_credit", "stripe_apple_pay", "stripe_google_pay"]);
    expect(JSON.stringify(page)).not.toContain("sk_live_x");
  });

  it("reads the payment's state and the session's expiry", async () => {
    const biz = await createTestBusiness();
    const failed = await newSession(biz);
    await recordPayment(biz, failed, "failed");
    expect((await getCheckoutPage(testDb(), failed))!.state).toBe("failed");
    const paid = await newSession(biz);
    await recordPayment(biz, paid, "succeeded");
    expect(await getCheckoutStatus(testDb(), paid)).toEqual({
      session_id: paid,
      state: "succeeded",
      status: "succeeded",
      amount: 2500,
      currency: "USD",
      payment_method: "credit",
      failure_code: null,
    });
    const old = await newSession(biz);
    await testDb().update(businesses).set({ clockOffsetMs: 25 * 3600 * 1000 }).where(eq(businesses.id, biz.business.id));
    expect((await getCheckoutPage(testDb(), old))!.state).toBe("expired");
  });

  it("knows nothing of odd ids", async () => {
    for (const id of ["", "cs_", "cs_nope", "x".repeat(500), "cs_a\u0000b", "../etc"]) {
      expect(await getCheckoutPage(testDb(), id)).toBeNull();
      expect(await getCheckoutStatus(testDb(), id)).toBeNull();
    }
  });
});

describe("safeReturnUrl", () => {
  it("keeps http(s) links only", () => {
    expect(safeReturnUrl("https://shop.example/a?b=1")).toBe("https://shop.example/a?b=1");
    expect(safeReturnUrl("javascript:alert(1)")).toBeNull();
    expect(safeReturnUrl("data:text/html,hi")).toBeNull();
    expect(safeReturnUrl("not a url")).toBeNull();
    expect(safeReturnUrl(null)).toBeNull();
  });
});

describe("GET /checkout/sessions/{id}", () => {
  it("answers the state without a key, and 404 for unknown sessions", async () => {
    const biz = await createTestBusiness();
    const id = await newSession(biz, { metadata: { secret: "s3cr3t" } });
    const res = await api("GET", `/checkout/sessions/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ session_id: id, state: "open", status: null, amount: 2500, currency: "USD", payment_method: null, failure_code: null });
    expect(res.headers.get("cache-control")).toBe("no-store");
    const missing = await api("GET", "/checkout/sessions/cs_01NOSUCHSESSION");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: "session_not_found" });
  });
});
