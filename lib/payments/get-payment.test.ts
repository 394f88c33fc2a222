import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { businesses, payments, sessions } from "@/db/schema";
import { newId } from "@/lib/ids";
import { api, createTestBusiness, sessionBody, testDb } from "@/test/helpers";

type Biz = Awaited<ReturnType<typeof createTestBusiness>>;
let biz: Biz;

beforeAll(async () => {
  biz = await createTestBusiness();
});

async function createSession(owner: Biz, overrides: Record<string, unknown> = {}) {
  const res = await api("POST", "/session", { key: owner.secretKey, body: sessionBody(overrides) });
  expect(res.status).toBe(201);
  return res.body.session_id as string;
}

const getPayment = (id: string, key = biz.secretKey) => api("GET", `/payment/${id}`, { key });

const paymentFields = [
  "session_id",
  "status",
  "amount",
  "fees",
  "net_amount",
  "currency",
  "order_id",
  "customer",
  "description",
  "items",
  "metadata",
  "payment_method",
  "provider",
  "created_at",
  "customer_details",
  "payment_details",
  "ip",
  "country",
  "user_agent",
];
const nullBeforeAttempt = [
  "status",
  "fees",
  "net_amount",
  "payment_method",
  "provider",
  "customer_details",
  "payment_details",
  "ip",
  "country",
  "user_agent",
];
const isoMicrosUtc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

async function setClockOffset(owner: Biz, ms: number) {
  await testDb().update(businesses).set({ clockOffsetMs: ms }).where(eq(businesses.id, owner.business.id));
}

describe("GET /payment/{session_id}", () => {
  it("returns every field of the Payment object, with the listed fields null before any attempt", async () => {
    const body = sessionBody({ description: "Two shirts", metadata: { cart: "c-9" } });
    const before = Date.now();
    const id = await createSession(biz, body);
    const after = Date.now();
    const res = await getPayment(id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...paymentFields].sort());
    for (const field of nullBeforeAttempt) expect(res.body[field], field).toBeNull();
    expect(res.body).toMatchObject({
      session_id: id,
      amount: 2500,
      currency: "USD",
      order_id: body.order_id,
      customer: "cus_123",
      description: "Two shirts",
      items: body.items,
      metadata: { cart: "c-9" },
    });
    expect(Number.isInteger(res.body.amount)).toBe(true);
    expect(res.body.created_at).toMatch(isoMicrosUtc);
    const [row] = await testDb().select({ createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.id, id));
    // Same instant as stored, to the microsecond.
    expect((res.body.created_at as string).slice(0, 19)).toBe(new Date(row!.createdAt).toISOString().slice(0, 19));
    // Stamped while the session was created (1 ms for the rounding), however slow the machine.
    expect(Date.parse(res.body.created_at as string)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(res.body.created_at as string)).toBeLessThanOrEqual(after + 1);
  });

  it("description is a string (empty) and metadata an object ({}) when the session had none", async () => {
    const res = await getPayment(await createSession(biz));
    expect(res.body.description).toBe("");
    expect(res.body.metadata).toEqual({});
    expect(Array.isArray(res.body.items)).toBe(true);
  });

  it("maps a completed payment with the right types", async () => {
    const id = await createSession(biz);
    await testDb().insert(payments).values({
      id: newId("payment"),
      sessionId: id,
      businessId: biz.business.id,
      status: "succeeded",
      amount: 2500,
      fees: 103,
      netAmount: 2397,
      paymentMethod: "credit",
      provider: "stripe",
      customerDetails: {
        name: "Ann",
        email: "ann@example.com",
        phone: null,
        address: { line1: "1 Main St", city: "Austin", postal_code: "73301", country: "US" },
      },
      paymentDetails: { type: "card", card: { brand: "visa", last4: "4242", exp_month: "12", exp_year: "2030", country: "US" } },
      ip: "198.51.100.7",
      country: "US",
      userAgent: "Mozilla/5.0",
    });
    const res = await getPayment(id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...paymentFields].sort());
    expect(res.body).toMatchObject({
      status: "succeeded",
      amount: 2500,
      fees: 103,
      net_amount: 2397,
      payment_method: "credit",
      provider: "stripe",
      ip: "198.51.100.7",
      country: "US",
      user_agent: "Mozilla/5.0",
      payment_details: { type: "card", card: { brand: "visa", last4: "4242", exp_month: "12", exp_year: "2030", country: "US" } },
    });
    expect((res.body.customer_details as { address: { country: string } }).address.country).toBe("US");
  });

  it("an unpaid session past 24 h reads as expired (business clock advanced)", async () => {
    const owner = await createTestBusiness();
    const id = await createSession(owner);
    await setClockOffset(owner, 24 * 3600_000 - 60_000);
    expect((await getPayment(id, owner.secretKey)).body.status).toBeNull();
    await setClockOffset(owner, 24 * 3600_000 + 1_000);
    const res = await getPayment(id, owner.secretKey);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("expired");
    // Still no attempt: the other attempt fields stay null.
    expect(res.body.fees).toBeNull();
    expect(res.body.provider).toBeNull();
  });

  it("a paid session keeps its status after 24 h", async () => {
    const owner = await createTestBusiness();
    const id = await createSession(owner);
    await testDb()
      .insert(payments)
      .values({ id: newId("payment"), sessionId: id, businessId: owner.business.id, status: "succeeded", amount: 2500 });
    await setClockOffset(owner, 48 * 3600_000);
    expect((await getPayment(id, owner.secretKey)).body.status).toBe("succeeded");
  });

  it("another business's session answers 404 exactly", async () => {
    const other = await createTestBusiness();
    const id = await createSession(other);
    const res = await getPayment(id);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Payment not found" });
  });

  const oddIds: [string, string][] = [
    ["unknown well-formed id", "cs_01ZZZZZZZZZZZZZZZZZZZZZZZZ"],
    ["very long id", `cs_${"A".repeat(10_000)}`],
    ["encoded slash", "cs_abc%2F..%2Fbalance"],
    ["encoded NUL", "cs_abc%00"],
    ["unicode", "cs_%E2%9C%93%F0%9F%92%B3"],
    ["raw unicode", "cs_é✓"],
    ["malformed escape", "cs_%ZZ"],
    ["invalid UTF-8 escape", "%ED%A0%80"],
    ["SQL-ish", "cs_1'%20OR%20'1'%3D'1"],
    ["spaces", "%20%20"],
  ];
  it.each(oddIds)("%s answers 404 exactly, never 500", async (_name, id) => {
    const res = await getPayment(id);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Payment not found" });
  });
});
