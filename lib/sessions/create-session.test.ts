import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, queryRows, sql } from "@/db/client";
import { businessPaymentMethods, businessProviders, jobs, planOrderIds, sessions } from "@/db/schema";
import { newId } from "@/lib/ids";
import { checkoutUrl } from "@/lib/env";
import { stopSandboxEmulator } from "@/lib/providers/stripe/sandbox-emulator";
import { countSessions, expectFieldErrors, isErrorMessage } from "@/test/api-assertions";
import { api, createTestBusiness, sessionBody, testDb, testHandle, uniqueName } from "@/test/helpers";

type Biz = Awaited<ReturnType<typeof createTestBusiness>>;
let biz: Biz;

beforeAll(async () => {
  biz = await createTestBusiness();
});
// Subscription sessions check the business's Stripe endpoint: the emulator starts on first use.
afterAll(() => stopSandboxEmulator());

const post = (body: unknown, key = biz.secretKey, ip?: string) => api("POST", "/session", { key, body, ip });

async function storedSession(id: string) {
  const [row] = await testDb().select().from(sessions).where(eq(sessions.id, id));
  return row;
}

/** An order id no plan's renewal can take (no `-<n>` suffix): the insert without the order-id lock. */
const plainOrderId = () => uniqueName("plain").replaceAll("-", "_");
const oneItem = (price: number, quantity = 1) => ({ amount: price * quantity, items: [{ name: "Thing", quantity, price }] });

describe("POST /session: success", () => {
  it("answers 201 with exactly session_id (cs_) and checkout_url, and stores the session", async () => {
    const body = sessionBody({ description: "Two shirts", metadata: { cart: "c-1", n: 2 }, email: "buyer@example.com" });
    const res = await post(body);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["checkout_url", "session_id"]);
    const id = res.body.session_id as string;
    expect(id).toMatch(/^cs_[0-9A-Za-z]+$/);
    expect(res.body.checkout_url).toBe(`${checkoutUrl()}/${id}`);
    const row = await storedSession(id);
    expect(row).toMatchObject({
      businessId: biz.business.id,
      amount: 2500,
      currency: "USD",
      customer: "cus_123",
      customerEmail: "buyer@example.com",
      orderId: body.order_id,
      description: "Two shirts",
      items: body.items,
      metadata: { cart: "c-1", n: 2 },
      keyKind: "secret",
      requiredIp: null,
      creatorIp: null,
      paymentMethodId: null,
    });
  });

  it("accepts the minimum amount of 100 cents", async () => {
    expect((await post(sessionBody(oneItem(100)))).status).toBe(201);
  });

  it("accepts currency in lower case and stores it as USD", async () => {
    const res = await post(sessionBody({ currency: "usd" }));
    expect(res.status).toBe(201);
    expect((await storedSession(res.body.session_id as string))?.currency).toBe("USD");
  });

  it("accepts customer as an object {id, email, name, phone} (decision: both forms)", async () => {
    const customer = { id: "cus_obj", email: "ann@example.com", name: "Ann", phone: "+15550100" };
    const res = await post(sessionBody({ customer }));
    expect(res.status).toBe(201);
    const row = await storedSession(res.body.session_id as string);
    expect(row?.customer).toBe("cus_obj");
    expect(row?.customerEmail).toBe("ann@example.com");
    expect(row?.customerPrefill).toEqual({ email: "ann@example.com", name: "Ann", phone: "+15550100" });
  });

  it("stores no prefill (SQL NULL, not a JSON null) for a customer given as a string", async () => {
    // An order id a plan's renewal could take (`A-<n>`) and one it cannot: two statements.
    for (const orderId of [plainOrderId(), uniqueName("stemmed")]) {
      const res = await post(sessionBody({ customer: "cus_plain", order_id: orderId }));
      expect(res.status).toBe(201);
      const [row] = await testDb()
        .select({ customer: sessions.customer, noPrefill: sql<boolean>`${sessions.customerPrefill} is null` })
        .from(sessions)
        .where(eq(sessions.id, res.body.session_id as string));
      expect(row).toEqual({ customer: "cus_plain", noPrefill: true });
    }
  });

  it("uses the e-mail as customer identifier when the customer object has no id", async () => {
    const res = await post(sessionBody({ customer: { email: "bob@example.com" } }));
    expect(res.status).toBe(201);
    expect((await storedSession(res.body.session_id as string))?.customer).toBe("bob@example.com");
  });

  it("keeps metadata as given, nested values included", async () => {
    const metadata = { plan: "gold", seats: 3, trial: false, note: null, tags: ["a", "b"], nested: { a: { b: { c: 1 } } } };
    const res = await post(sessionBody({ metadata }));
    expect(res.status).toBe(201);
    expect((await storedSession(res.body.session_id as string))?.metadata).toEqual(metadata);
  });

  it("treats null optional fields as absent", async () => {
    const res = await post(
      sessionBody({ description: null, metadata: null, email: null, paymentMethodId: null, ip: null, subscription: null }),
    );
    expect(res.status).toBe(201);
    // `subscription: null` is no subscription: a public key may send it.
    const pub = await post(sessionBody({ subscription: null }), biz.publicKey);
    expect(pub.status, JSON.stringify(pub.body)).toBe(201);
    expect((await storedSession(pub.body.session_id as string))?.subscriptionInterval).toBeNull();
  });
});

describe("POST /session: validation (400 field map)", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["amount missing", { amount: undefined }, "amount"],
    ["amount null", { amount: null }, "amount"],
    ["amount a string", { amount: "2500" }, "amount"],
    ["amount not an integer", { amount: 2500.5 }, "amount"],
    ["amount below 100", oneItem(99), "amount"],
    ["amount negative", { amount: -2500 }, "amount"],
    ["amount not the sum of price x quantity", { amount: 2600 }, "amount"],
    ["currency missing", { currency: undefined }, "currency"],
    ["currency not USD", { currency: "EUR" }, "currency"],
    ["currency two letters", { currency: "US" }, "currency"],
    ["currency four letters", { currency: "USDD" }, "currency"],
    ["currency a number", { currency: 840 }, "currency"],
    ["customer missing", { customer: undefined }, "customer"],
    ["customer empty", { customer: "" }, "customer"],
    ["customer a number", { customer: 123 }, "customer"],
    ["customer an array", { customer: ["cus"] }, "customer"],
    ["customer object without id or email", { customer: { name: "Ann" } }, "customer"],
    ["customer object with a bad e-mail", { customer: { email: "nope" } }, "customer"],
    ["customer object with a non-string name", { customer: { id: "c", name: 5 } }, "customer"],
    ["order_id missing", { order_id: undefined }, "order_id"],
    ["order_id empty", { order_id: "  " }, "order_id"],
    ["order_id a number", { order_id: 42 }, "order_id"],
    ["order_id too long", { order_id: "o".repeat(201) }, "order_id"],
    ["items missing", { items: undefined }, "items"],
    ["items empty", { items: [] }, "items"],
    ["items not an array", { items: { name: "x", quantity: 1, price: 2500 } }, "items"],
    ["item null", { items: [null] }, "items"],
    ["item name missing", { items: [{ quantity: 1, price: 2500 }] }, "items"],
    ["item name not a string", { items: [{ name: 7, quantity: 1, price: 2500 }] }, "items"],
    ["item quantity 0", { items: [{ name: "x", quantity: 0, price: 2500 }] }, "items"],
    ["item quantity not an integer", { items: [{ name: "x", quantity: 1.5, price: 2500 }] }, "items"],
    ["item quantity a string", { items: [{ name: "x", quantity: "1", price: 2500 }] }, "items"],
    ["item price 0", { items: [{ name: "x", quantity: 1, price: 0 }, { name: "y", quantity: 1, price: 2500 }] }, "items"],
    ["item price not an integer", { items: [{ name: "x", quantity: 1, price: 2499.5 }] }, "items"],
    ["description not a string", { description: 5 }, "description"],
    ["metadata not an object", { metadata: "x" }, "metadata"],
    ["metadata an array", { metadata: [1, 2] }, "metadata"],
    ["email not a string", { email: 5 }, "email"],
    ["email not an e-mail", { email: "not-an-email" }, "email"],
    ["paymentMethodId not a string", { paymentMethodId: 5 }, "paymentMethodId"],
    ["text with a NUL character", { description: "a\u0000b" }, "description"],
    ["item name with a lone surrogate", { items: [{ name: "\ud800", quantity: 1, price: 2500 }] }, "items"],
    ["metadata with a NUL character", { metadata: { note: "a\u0000" } }, "metadata"],
    ["metadata key with a NUL character", { metadata: { "a\u0000": 1 } }, "metadata"],
    ["metadata key longer than 40", { metadata: { ["k".repeat(41)]: 1 } }, "metadata"],
    ["metadata with more than 50 keys", { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, "metadata"],
    ["metadata over 8 KB", { metadata: { big: "x".repeat(8200) } }, "metadata"],
    ["metadata nested more than 5 levels", { metadata: { a: { b: { c: { d: { e: { f: 1 } } } } } } }, "metadata"],
  ];
  it.each(cases)("%s", async (_name, overrides, field) => {
    const before = await countSessions(biz.business.id);
    const res = await post(sessionBody(overrides));
    expectFieldErrors(res, [field]);
    expect(await countSessions(biz.business.id)).toBe(before);
  });

  it("reports every bad field at once", async () => {
    const res = await post({ amount: "x", currency: "EUR", items: [] });
    expectFieldErrors(res, ["amount", "currency", "customer", "order_id", "items"]);
  });

  it("an empty object names every required field", async () => {
    const res = await post({});
    expectFieldErrors(res, ["amount", "currency", "customer", "order_id", "items"]);
  });

  it("checks amount against the sum even when another optional field is bad", async () => {
    const res = await post(sessionBody({ amount: 2600, email: "nope" }));
    expectFieldErrors(res, ["amount", "email"]);
  });

  it("a deeply nested metadata value is a 400, not a crash", async () => {
    const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    const raw = JSON.stringify(sessionBody()).replace(/}$/, `,"metadata":{"x":${deep}}}`);
    const res = await api("POST", "/session", { key: biz.secretKey, rawBody: raw });
    expect(res.status).toBe(400);
  });
});

describe("POST /session: Kassa's own limits (docs/api/sessions-and-payments.md), at and past each bound", () => {
  const items = (n: number, price = 1) => ({ amount: n * price, items: Array.from({ length: n }, (_, i) => ({ name: `i${i}`, quantity: 1, price })) });
  const email255 = `${"a".repeat(243)}@example.com`;
  const bounds: [string, Record<string, unknown>, Record<string, unknown>, string[]][] = [
    ["amount 99,999,999", oneItem(99_999_999), oneItem(50_000_000, 2), ["amount"]],
    ["price 99,999,999", oneItem(99_999_999), { amount: 100_000_000, items: [{ name: "x", quantity: 1, price: 100_000_000 }] }, ["amount", "items"]],
    ["quantity 1,000,000", oneItem(1, 1_000_000), oneItem(1, 1_000_001), ["items"]],
    ["100 items", items(100), items(101), ["items"]],
    ["item name 250 characters", { items: [{ name: "n".repeat(250), quantity: 1, price: 2500 }], amount: 2500 }, { items: [{ name: "n".repeat(251), quantity: 1, price: 2500 }], amount: 2500 }, ["items"]],
    ["description 1,000 characters", { description: "d".repeat(1000) }, { description: "d".repeat(1001) }, ["description"]],
    ["customer 255 characters", { customer: "c".repeat(255) }, { customer: "c".repeat(256) }, ["customer"]],
    ["customer id 255 characters", { customer: { id: "c".repeat(255) } }, { customer: { id: "c".repeat(256) } }, ["customer"]],
    ["customer phone 40 characters", { customer: { id: "c", phone: "1".repeat(40) } }, { customer: { id: "c", phone: "1".repeat(41) } }, ["customer"]],
    ["email 255 characters", { email: email255 }, { email: `a${email255}` }, ["email"]],
    ["order_id 200 characters", { order_id: `${uniqueName("o")}-`.padEnd(200, "o") }, { order_id: "o".repeat(201) }, ["order_id"]],
  ];
  it.each(bounds)("%s is accepted; one past it answers 400 naming the field", async (_name, atBound, past, fields) => {
    const before = await countSessions(biz.business.id);
    expectFieldErrors(await post(sessionBody(past)), fields);
    expect(await countSessions(biz.business.id)).toBe(before);
    const res = await post(sessionBody(atBound));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});

describe("POST /session: subscription", () => {
  const sub = (subscription: unknown) => sessionBody({ subscription });

  it("with a public key answers 403 exactly, even when other fields are bad", async () => {
    const before = await countSessions(biz.business.id);
    for (const body of [
      sub({ interval: "month" }),
      { subscription: { interval: "month" } },
      { subscription: { interval: "hour", interval_count: -1 }, amount: "x", currency: "EUR" },
    ]) {
      const res = await post(body, biz.publicKey);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "subscription_requires_secret_key" });
    }
    expect(await countSessions(biz.business.id)).toBe(before);
  });

  const accepted: [string, number][] = [
    ["day", 1095],
    ["week", 156],
    ["month", 36],
    ["year", 3],
    ["month", 1],
  ];
  it.each(accepted)("interval %s x %i is accepted: 201, the period stored with the session", async (interval, n) => {
    const res = await post(sub({ interval, interval_count: n }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const row = await storedSession(res.body.session_id as string);
    expect(row).toMatchObject({ subscriptionInterval: interval, subscriptionIntervalCount: n, keyKind: "secret" });
  });

  it("interval_count defaults to 1 (omitted or null), and `email` is kept as the customer e-mail", async () => {
    for (const subscription of [{ interval: "year" }, { interval: "year", interval_count: null }]) {
      const res = await post(sessionBody({ subscription, email: "payer@example.com" }));
      expect(res.status).toBe(201);
      const row = await storedSession(res.body.session_id as string);
      expect(row).toMatchObject({
        subscriptionInterval: "year",
        subscriptionIntervalCount: 1,
        customerEmail: "payer@example.com",
      });
    }
  });

  it("a forced method that cannot bill a plan answers 400 no_subscription_method; a card one is accepted", async () => {
    const before = await countSessions(biz.business.id);
    const res = await post(sessionBody({ subscription: { interval: "month" }, paymentMethodId: "sandbox_bitcoin" }));
    expect(res.status).toBe(400);
    expect(isErrorMessage(res.body), JSON.stringify(res.body)).toBe(true);
    expect(res.body.error).toBe("no_subscription_method");
    expect(await countSessions(biz.business.id)).toBe(before);
    const card = await post(sessionBody({ subscription: { interval: "month" }, paymentMethodId: "stripe_apple_pay" }));
    expect(card.status).toBe(201);
  });

  it("with card, Apple Pay and Google Pay all off answers 400 no_subscription_method and stores nothing", async () => {
    const other = await createTestBusiness();
    await testDb()
      .update(businessPaymentMethods)
      .set({ enabled: false })
      .where(eq(businessPaymentMethods.businessId, other.business.id));
    await testDb()
      .update(businessPaymentMethods)
      .set({ enabled: true })
      .where(and(eq(businessPaymentMethods.businessId, other.business.id), eq(businessPaymentMethods.methodId, "sandbox_bitcoin")));
    const before = await countSessions(other.business.id);
    const res = await api("POST", "/session", { key: other.secretKey, body: sub({ interval: "month" }) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("no_subscription_method");
    expect(await countSessions(other.business.id)).toBe(before);
    // A one-time session still works there.
    expect((await api("POST", "/session", { key: other.secretKey, body: sessionBody() })).status).toBe(201);
  });

  it("the period's amount keeps the session rules: at least 100 cents, the sum of the items", async () => {
    const before = await countSessions(biz.business.id);
    expectFieldErrors(await post(sessionBody({ ...oneItem(99), subscription: { interval: "month" } })), ["amount"]);
    expectFieldErrors(await post(sessionBody({ amount: 2600, subscription: { interval: "month" } })), ["amount"]);
    expect(await countSessions(biz.business.id)).toBe(before);
    expect((await post(sessionBody({ ...oneItem(100), subscription: { interval: "month" } }))).status).toBe(201);
  });

  it.each(["stripe_credit", "stripe_google_pay"])("a plan forced to %s (card-billing provider) is accepted", async (id) => {
    const res = await post(sessionBody({ subscription: { interval: "week" }, paymentMethodId: id }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await storedSession(res.body.session_id as string)).toMatchObject({ paymentMethodId: id, subscriptionInterval: "week" });
  });

  const refused: [string, unknown][] = [
    ["1096 days", { interval: "day", interval_count: 1096 }],
    ["157 weeks", { interval: "week", interval_count: 157 }],
    ["37 months", { interval: "month", interval_count: 37 }],
    ["4 years", { interval: "year", interval_count: 4 }],
    ["interval missing", { interval_count: 2 }],
    ["interval unknown", { interval: "hour" }],
    ["interval_count 0", { interval: "month", interval_count: 0 }],
    ["interval_count not an integer", { interval: "month", interval_count: 1.5 }],
    ["interval_count a string", { interval: "month", interval_count: "2" }],
    ["subscription not an object", "monthly"],
  ];
  it.each(refused)("refuses %s with {subscription: [...]}", async (_name, subscription) => {
    const before = await countSessions(biz.business.id);
    expectFieldErrors(await post(sub(subscription)), ["subscription"]);
    expect(await countSessions(biz.business.id)).toBe(before);
  });
});

describe("POST /session: body that is not a JSON object", () => {
  const raws: [string, string | undefined][] = [
    ["invalid JSON", "{"],
    ["a JSON array", "[1,2]"],
    ["an empty body", ""],
    ["no body at all", undefined],
    ["JSON null", "null"],
    ["a JSON string", '"hello"'],
    ["a JSON number", "42"],
  ];
  it.each(raws)("%s answers 400 {error, message} and stores nothing", async (_name, rawBody) => {
    const before = await countSessions(biz.business.id);
    const res = await api("POST", "/session", { key: biz.secretKey, rawBody, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(isErrorMessage(res.body), JSON.stringify(res.body)).toBe(true);
    expect(await countSessions(biz.business.id)).toBe(before);
  });
});

describe("POST /session: order_id", () => {
  it("is unique per business: a second use answers 400 {order_id: [...]}", async () => {
    const orderId = uniqueName("dup");
    expect((await post(sessionBody({ order_id: orderId }))).status).toBe(201);
    const before = await countSessions(biz.business.id);
    expectFieldErrors(await post(sessionBody({ order_id: orderId })), ["order_id"]);
    // With the public key too.
    expectFieldErrors(await post(sessionBody({ order_id: orderId }), biz.publicKey), ["order_id"]);
    expect(await countSessions(biz.business.id)).toBe(before);
  });

  it("may be used again by another business", async () => {
    const other = await createTestBusiness();
    const orderId = uniqueName("shared");
    expect((await post(sessionBody({ order_id: orderId }))).status).toBe(201);
    expect((await post(sessionBody({ order_id: orderId }), other.secretKey)).status).toBe(201);
  });

  it("concurrent creations with the same order_id: exactly one succeeds", async () => {
    const orderId = uniqueName("race");
    const results = await Promise.all(Array.from({ length: 6 }, () => post(sessionBody({ order_id: orderId }))));
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) expectFieldErrors(r, ["order_id"]);
    const rows = await testDb()
      .select()
      .from(sessions)
      .where(and(eq(sessions.businessId, biz.business.id), eq(sessions.orderId, orderId)));
    expect(rows).toHaveLength(1);
  });
  it("writes the session's expiry job with it, due at expires_at on the business's clock", async () => {
    for (const orderId of [plainOrderId(), `${uniqueName("stemmed")}-7`]) {
      const res = await post(sessionBody({ order_id: orderId }));
      expect(res.status).toBe(201);
      const session = await storedSession(res.body.session_id as string);
      const found = await testDb().select().from(jobs).where(eq(jobs.dedupeKey, `expire_session:${session!.id}`));
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ kind: "expire_session", businessId: biz.business.id, payload: { sessionId: session!.id }, businessClock: true, maxAttempts: 10 });
      expect(new Date(found[0]!.runAt).getTime()).toBe(new Date(session!.expiresAt).getTime());
    }
  });

  it("a refused session leaves no expiry job behind", async () => {
    for (const orderId of [plainOrderId(), uniqueName("dup")]) {
      expect((await post(sessionBody({ order_id: orderId }))).status).toBe(201);
      const before = await testDb().select({ id: jobs.id }).from(jobs).where(eq(jobs.businessId, biz.business.id));
      expectFieldErrors(await post(sessionBody({ order_id: orderId })), ["order_id"]);
      const after = await testDb().select({ id: jobs.id }).from(jobs).where(eq(jobs.businessId, biz.business.id));
      expect(after).toHaveLength(before.length);
    }
  });
});

describe("POST /session: order ids a plan's renewals will take", () => {
  const plan = (orderId: string) => sessionBody({ order_id: orderId, subscription: { interval: "month" } });

  it("a session cannot take {order_id}-{cycle} of an existing plan; -1, -02 and other stems stay free", async () => {
    const stem = uniqueName("plan");
    expect((await post(plan(stem))).status).toBe(201);
    const before = await countSessions(biz.business.id);
    for (const taken of [`${stem}-2`, `${stem}-3`, `${stem}-12`]) {
      const res = await post(sessionBody({ order_id: taken }));
      expectFieldErrors(res, ["order_id"]);
      expect(String((res.body as Record<string, string[]>).order_id)).toContain(stem);
      expectFieldErrors(await post(sessionBody({ order_id: taken }), biz.publicKey), ["order_id"]);
    }
    expect(await countSessions(biz.business.id)).toBe(before);
    for (const free of [`${stem}-1`, `${stem}-02`, `${stem}-x`, `${stem}x-2`]) expect((await post(sessionBody({ order_id: free }))).status).toBe(201);
  });

  it("a plan cannot start on an order_id whose renewal ids are already used", async () => {
    const stem = uniqueName("late-plan");
    expect((await post(sessionBody({ order_id: `${stem}-2` }))).status).toBe(201);
    const before = await countSessions(biz.business.id);
    expectFieldErrors(await post(plan(stem)), ["order_id"]);
    expect(await countSessions(biz.business.id)).toBe(before);
    // A one-off session on the same order_id is not a plan: its `-2` sibling is harmless.
    expect((await post(sessionBody({ order_id: stem }))).status).toBe(201);
  });

  it("order ids with regex or LIKE characters are compared literally", async () => {
    const stem = `${uniqueName("odd")}.%_*`;
    expect((await post(sessionBody({ order_id: `${stem.replace(".", "x")}-2` }))).status).toBe(201);
    expect((await post(plan(stem))).status).toBe(201);
  });

  it("sessions {order_id}-{n} of one stem never wait on each other, only on a plan of that stem (PostgreSQL)", async (ctx) => {
    const url = (testHandle() as { url?: string }).url;
    ctx.skip(!url, "needs PostgreSQL (DATABASE_URL)");
    const stem = uniqueName("busy");
    const other = await openDatabase({ kind: "postgres", url: url!, max: 1 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    // Another instance's session `${stem}-2`, still in its transaction, holding its stem's lock.
    const inFlight = other.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock_shared(hashtextextended(${`order:${biz.business.id}:${stem}`}, 0))`);
      held();
      await released;
    });
    try {
      await holding;
      const sibling = post(sessionBody({ order_id: `${stem}-3` })).then((res) => res.status);
      // A blocked sibling would wait until release(): 30 s tells that apart even on a busy machine.
      const waited = new Promise((resolve) => setTimeout(() => resolve("still waiting after 30 s"), 30_000));
      expect(await Promise.race([sibling, waited])).toBe(201);
      let planAnswered = false;
      const planned = post(plan(stem)).then((res) => ((planAnswered = true), res));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(planAnswered).toBe(false);
      release();
      // Once free, the plan sees `${stem}-3`.
      expectFieldErrors(await planned, ["order_id"]);
    } finally {
      release();
      await inFlight;
      await other.close();
    }
  });

  it("a session {order_id}-{n} waits for a plan being created, then sees it (PostgreSQL)", async (ctx) => {
    const url = (testHandle() as { url?: string }).url;
    ctx.skip(!url, "needs PostgreSQL (DATABASE_URL)");
    const stem = uniqueName("pending-plan");
    // The session that becomes plan `${stem}`, inside another instance's transaction holding the
    // plan's exclusive lock, as a plan's creation does; committed only once the sibling waits.
    const seed = await post(sessionBody({ order_id: uniqueName("seed") }));
    expect(seed.status).toBe(201);
    const other = await openDatabase({ kind: "postgres", url: url!, max: 1 });
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const seedRow = (await storedSession(seed.body.session_id as string))!;
    const planning = other.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`order:${biz.business.id}:${stem}`}, 0))`);
      await tx.insert(sessions).values({
        ...seedRow,
        id: newId("session"),
        orderId: stem,
        subscriptionInterval: "month",
        subscriptionIntervalCount: 1,
      });
      held();
      await committing;
    });
    try {
      await holding;
      const before = (await countSessions(biz.business.id)) + 1; // the plan, once committed
      let answered = false;
      const sibling = post(sessionBody({ order_id: `${stem}-2` })).then((res) => ((answered = true), res));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answered).toBe(false);
      commit();
      await planning;
      // Its check ran once the lock was free, so it saw the plan committed meanwhile.
      const res = await sibling;
      expectFieldErrors(res, ["order_id"]);
      expect(String((res.body as Record<string, string[]>).order_id)).toContain(stem);
      expect(await countSessions(biz.business.id)).toBe(before);
    } finally {
      commit();
      await planning.catch(() => {});
      await other.close();
    }
  });

  it("every plan's order id is kept in plan_order_ids, looked up there by its key alone", async () => {
    const stem = uniqueName("kept-plan");
    const made = await post(plan(stem));
    expect(made.status).toBe(201);
    expect((await post(sessionBody({ order_id: `${stem}x` }))).status).toBe(201);
    const kept = await testDb().select().from(planOrderIds).where(eq(planOrderIds.businessId, biz.business.id));
    expect(kept.filter((row) => row.orderId.startsWith(stem))).toEqual([
      { businessId: biz.business.id, orderId: stem, sessionId: made.body.session_id },
    ]);
    // The look's plan is cached per connection: with sequential scans off in the function, the
    // primary key is its only way, even when the table was analyzed empty (autovacuum off).
    const [fn] = await queryRows<{ config: string[] | null }>(
      testDb(),
      sql`select proconfig as config from pg_proc where proname = 'kassa_claim_order_stem'`,
    );
    expect(fn!.config).toEqual(["enable_seqscan=off"]);
  });

  it("a plan and its renewal id created at the same moment: never both", async () => {
    const stem = uniqueName("race-plan");
    const results = await Promise.all([post(plan(stem)), post(sessionBody({ order_id: `${stem}-2` })), post(sessionBody({ order_id: `${stem}-3` }))]);
    const rows = await testDb().select({ orderId: sessions.orderId }).from(sessions).where(eq(sessions.businessId, biz.business.id));
    const ids = new Set(rows.map((r) => r.orderId));
    const planMade = results[0]!.status === 201;
    expect(planMade ? !ids.has(`${stem}-2`) && !ids.has(`${stem}-3`) : ids.has(`${stem}-2`) || ids.has(`${stem}-3`)).toBe(true);
    for (const r of results) if (r.status !== 201) expectFieldErrors(r, ["order_id"]);
  });
});

describe("POST /session: paymentMethodId", () => {
  const notFound = { error: "Payment method not found" };

  it("an enabled method is accepted and stored; a card method starts nothing (no redirect_url, no payment_error)", async () => {
    const res = await post(sessionBody({ paymentMethodId: "stripe_credit" }));
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["checkout_url", "session_id"]);
    expect((await storedSession(res.body.session_id as string))?.paymentMethodId).toBe("stripe_credit");
  });

  it.each(["nope", "stripe_unknown", "STRIPE_CREDIT", ""])("unknown id %j answers 400 exactly", async (id) => {
    const before = await countSessions(biz.business.id);
    const res = await post(sessionBody({ paymentMethodId: id }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(notFound);
    expect(await countSessions(biz.business.id)).toBe(before);
  });

  it("a method disabled for the business answers 400 exactly; other businesses keep it", async () => {
    const own = await createTestBusiness();
    const other = await createTestBusiness();
    await testDb()
      .update(businessPaymentMethods)
      .set({ enabled: false })
      .where(and(eq(businessPaymentMethods.businessId, own.business.id), eq(businessPaymentMethods.methodId, "stripe_apple_pay")));
    const res = await post(sessionBody({ paymentMethodId: "stripe_apple_pay" }), own.secretKey);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(notFound);
    expect((await post(sessionBody({ paymentMethodId: "stripe_apple_pay" }), own.publicKey)).body).toEqual(notFound);
    expect((await post(sessionBody({ paymentMethodId: "stripe_apple_pay" }), other.secretKey)).status).toBe(201);
    expect(await countSessions(own.business.id)).toBe(0);
  });

  it("a method whose provider is inactive for the business answers 400 exactly", async () => {
    const own = await createTestBusiness();
    await testDb()
      .update(businessProviders)
      .set({ active: false })
      .where(and(eq(businessProviders.businessId, own.business.id), eq(businessProviders.provider, "stripe")));
    const res = await post(sessionBody({ paymentMethodId: "stripe_credit" }), own.secretKey);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(notFound);
    expect(await countSessions(own.business.id)).toBe(0);
  });

  it("a method of another mode's provider (live business, sandbox method) answers 400 exactly", async () => {
    const live = await createTestBusiness({ mode: "live" });
    const res = await post(sessionBody({ paymentMethodId: "sandbox_bitcoin" }), live.secretKey);
    expect(res.body).toEqual(notFound);
  });
});

describe("POST /session: ip", () => {
  it("with a secret key, a valid ip is stored as the IP the payer must pay from", async () => {
    for (const ip of ["198.51.100.7", "2001:db8::1"]) {
      const res = await post(sessionBody({ ip }));
      expect(res.status).toBe(201);
      const row = await storedSession(res.body.session_id as string);
      expect(row?.requiredIp).toBe(ip);
      expect(row?.creatorIp).toBeNull();
    }
  });

  it.each(["not-an-ip", "999.1.1.1", 12345, { ip: "1.2.3.4" }, "1.2.3.4, 5.6.7.8"])(
    "with a secret key, an invalid ip %j answers 400 {ip: [...]}",
    async (ip) => {
      const before = await countSessions(biz.business.id);
      expectFieldErrors(await post(sessionBody({ ip })), ["ip"]);
      expect(await countSessions(biz.business.id)).toBe(before);
    },
  );

  it("with a public key, the creator IP is captured and `ip` is ignored (even when invalid)", async () => {
    for (const ip of ["198.51.100.7", "garbage", 5]) {
      const res = await post(sessionBody({ ip }), biz.publicKey, "192.0.2.44");
      expect(res.status).toBe(201);
      const row = await storedSession(res.body.session_id as string);
      expect(row?.creatorIp).toBe("192.0.2.44");
      expect(row?.requiredIp).toBeNull();
      expect(row?.keyKind).toBe("public");
    }
  });
});
