import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, paymentLinkSessions, paymentLinks, sessions } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { clientIpHeader } from "@/lib/http/client-ip";
import { helperPay, paymentsBusiness, withSandboxProviders } from "@/lib/payments/testing/payment-fixtures";
import { expectFieldErrors } from "@/test/api-assertions";
import { api, sessionBody, testDb, uniqueName } from "@/test/helpers";
import { linkQuantityChoice } from "@/lib/payment-links/link-quantity-choice";
import { getPaymentLinkVisit } from "./payment-link-visit";

withSandboxProviders();

// A low per-IP limit for the visits (restored after); other tests use other IPs than the limit's.
const saved = { limit: process.env.RATE_LIMIT_SESSION_PUBLIC, window: process.env.RATE_LIMIT_WINDOW_SECONDS };
beforeAll(() => {
  process.env.RATE_LIMIT_SESSION_PUBLIC = "5";
  process.env.RATE_LIMIT_WINDOW_SECONDS = "60";
  resetEnv();
});
afterAll(() => {
  for (const [name, value] of [
    ["RATE_LIMIT_SESSION_PUBLIC", saved.limit],
    ["RATE_LIMIT_WINDOW_SECONDS", saved.window],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnv();
});

const items = [
  { name: "Workshop ticket", quantity: 1, price: 4000 },
  { name: "Booklet", quantity: 2, price: 500 },
];
const linkBody = (overrides: Record<string, unknown> = {}) => ({
  amount: 5000,
  currency: "USD",
  items,
  ...overrides,
});

type Link = {
  id: string;
  url: string;
  active: boolean;
  uses: number;
  order_prefix: string;
  [k: string]: unknown;
};

async function newLink(key: string, overrides: Record<string, unknown> = {}): Promise<Link> {
  const res = await api<Link>("POST", "/payment-links", { key, body: linkBody(overrides) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

let ipCounter = 0;
/** A fresh documentation-range IP per call, so only the rate-limit test meets the limit. */
const freshIp = () => `198.51.100.${++ipCounter}`;

async function visit(link: Link, options: { cookie?: string; ip?: string; query?: string } = {}) {
  const slug = new URL(link.url).pathname.split("/").pop()!;
  const headers = new Headers({ [clientIpHeader]: options.ip ?? freshIp() });
  if (options.cookie) headers.set("cookie", options.cookie);
  const response = await getPaymentLinkVisit(
    new Request(`http://kassa.test/l/${slug}${options.query ?? ""}`, { headers }),
    { slug },
  );
  const location = response.headers.get("location");
  const cookie = response.headers.get("set-cookie")?.split(";")[0];
  return {
    response,
    location,
    cookie,
    sessionId: location?.split("/").pop() ?? null,
    text: await response.text(),
  };
}

async function sessionOf(id: string) {
  const [row] = await testDb().select().from(sessions).where(eq(sessions.id, id));
  return row!;
}

describe("POST /payment-links", () => {
  it("creates a link (201) with its url, and records who did", async () => {
    const biz = await paymentsBusiness();
    const link = await newLink(biz.secretKey, { metadata: { campaign: "autumn" }, max_uses: 3 });
    expect(link).toMatchObject({
      object: "payment_link",
      active: true,
      amount: 5000,
      currency: "USD",
      items,
      uses: 0,
      max_uses: 3,
    });
    expect(link.id).toMatch(/^plink_/);
    expect(link.url).toMatch(/\/l\/[0-9A-Za-z]{12}$/);
    const audit = await testDb().select().from(auditEvents).where(eq(auditEvents.targetId, link.id));
    expect(audit.map((a) => a.action)).toEqual(["payment_link.create"]);
  });

  it("refuses bad input with every field named, and writes nothing", async () => {
    const biz = await paymentsBusiness();
    const res = await api<Record<string, string[]>>("POST", "/payment-links", {
      key: biz.secretKey,
      body: linkBody({ amount: 4999, max_uses: 0, expires_at: "tomorrow" }),
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(["amount", "expires_at", "max_uses"]);
    expect(res.body.amount![0]).toMatch(/sum of price x quantity/);
    const past = await api<Record<string, string[]>>("POST", "/payment-links", {
      key: biz.secretKey,
      body: linkBody({ expires_at: "2001-01-01T00:00:00Z" }),
    });
    expect(past.status).toBe(400);
    expect(past.body.expires_at![0]).toMatch(/future/);
    const rows = await testDb()
      .select()
      .from(paymentLinks)
      .where(eq(paymentLinks.businessId, biz.business.id));
    expect(rows).toEqual([]);
  });

  it("refuses a plan with a quantity range, and a range on several items", async () => {
    const biz = await paymentsBusiness();
    const plan = await api<Record<string, string[]>>("POST", "/payment-links", {
      key: biz.secretKey,
      body: {
        amount: 1500,
        currency: "USD",
        items: [{ name: "Monthly box", quantity: 1, price: 1500 }],
        subscription: { interval: "month" },
        adjustable_quantity: { minimum: 1, maximum: 5 },
      },
    });
    expect(plan.status).toBe(400);
    expect(plan.body.adjustable_quantity![0]).toMatch(/plan/);
    const several = await api<Record<string, string[]>>("POST", "/payment-links", {
      key: biz.secretKey,
      body: linkBody({ adjustable_quantity: { maximum: 5 } }),
    });
    expect(several.status).toBe(400);
    expect(several.body.adjustable_quantity![0]).toMatch(/exactly one item/);
  });

  it("needs the secret key, and honours Idempotency-Key", async () => {
    const biz = await paymentsBusiness();
    const pub = await api("POST", "/payment-links", { key: biz.publicKey, body: linkBody() });
    expect(pub.status).toBe(401);
    const headers = { "idempotency-key": `plink-${Date.now()}` };
    const first = await api<Link>("POST", "/payment-links", {
      key: biz.secretKey,
      body: linkBody(),
      headers,
    });
    const again = await api<Link>("POST", "/payment-links", {
      key: biz.secretKey,
      body: linkBody(),
      headers,
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });
});

describe("POST /payment-links: each limit at the limit and one past it", () => {
  const refusedField = async (key: string, overrides: Record<string, unknown>, field: string) => {
    const res = await api<Record<string, string[]>>("POST", "/payment-links", {
      key,
      body: linkBody(overrides),
    });
    expect(res.status, JSON.stringify(overrides).slice(0, 80)).toBe(400);
    expect(Object.keys(res.body)).toEqual([field]);
  };
  const one = (price: number, quantity = 1) => ({
    amount: price * quantity,
    items: [{ name: "Seat", quantity, price }],
  });

  it("max_uses 1 to 1,000,000; order_prefix 1 to 64 of A-Z a-z 0-9 _ . :", async () => {
    const biz = await paymentsBusiness();
    for (const max_uses of [1, 1_000_000])
      expect((await newLink(biz.secretKey, { max_uses })).max_uses).toBe(max_uses);
    for (const max_uses of [0, 1_000_001]) await refusedField(biz.secretKey, { max_uses }, "max_uses");
    const prefix = `P${Date.now()}`.padEnd(64, "_.:");
    expect((await newLink(biz.secretKey, { order_prefix: prefix })).order_prefix).toBe(prefix);
    expect((await newLink(biz.secretKey, { order_prefix: "a" })).order_prefix).toBe("a");
    for (const order_prefix of [`Q${prefix}`, "", "with-dash", "space here"])
      await refusedField(biz.secretKey, { order_prefix }, "order_prefix");
    const rows = await testDb()
      .select()
      .from(paymentLinks)
      .where(eq(paymentLinks.businessId, biz.business.id));
    expect(rows).toHaveLength(4);
  });

  it("adjustable_quantity: price x minimum at least 100 cents, price x maximum at most 99,999,999", async () => {
    const biz = await paymentsBusiness();
    expect(
      (await newLink(biz.secretKey, { ...one(50, 2), adjustable_quantity: { minimum: 2, maximum: 3 } }))
        .adjustable_quantity,
    ).toEqual({
      minimum: 2,
      maximum: 3,
    });
    await refusedField(
      biz.secretKey,
      { ...one(50, 2), adjustable_quantity: { minimum: 1, maximum: 3 } },
      "adjustable_quantity",
    );
    expect(
      (await newLink(biz.secretKey, { ...one(1000), adjustable_quantity: { maximum: 99_999 } }))
        .adjustable_quantity,
    ).toEqual({
      minimum: 1,
      maximum: 99_999,
    });
    await refusedField(
      biz.secretKey,
      { ...one(1000), adjustable_quantity: { maximum: 100_000 } },
      "adjustable_quantity",
    );
  });

  it("GET /payment-links: limit 1 to 100, default 10", async () => {
    const biz = await paymentsBusiness();
    for (let i = 0; i < 11; i++) await newLink(biz.secretKey);
    const page = (query: string) =>
      api<{ data: Link[]; has_more: boolean }>("GET", `/payment-links${query}`, { key: biz.secretKey });
    const byDefault = await page("");
    expect(byDefault.body.data).toHaveLength(10);
    expect(byDefault.body.has_more).toBe(true);
    const hundred = await page("?limit=100");
    expect(hundred.status).toBe(200);
    expect(hundred.body).toMatchObject({ has_more: false });
    expect(hundred.body.data).toHaveLength(11);
    expect((await page("?limit=1")).body.data).toHaveLength(1);
    for (const query of ["?limit=101", "?limit=0"]) {
      const bad = await page(query);
      expect(bad.status, query).toBe(400);
      expect(Object.keys(bad.body), query).toEqual(["limit"]);
    }
    const link = byDefault.body.data[0]!;
    const sessionsPage = (limit: number) =>
      api("GET", `/payment-links/${link.id}/sessions?limit=${limit}`, { key: biz.secretKey });
    expect((await sessionsPage(100)).status).toBe(200);
    expect((await sessionsPage(101)).status).toBe(400);
  });
});

describe("order_prefix and a plan's renewal ids", () => {
  // A plan with order_id P reserves P-2, P-3, ... for its renewals: a link whose sessions are
  // P-1, P-2, ... could then make one session and never another.
  it("a link cannot take a plan's order id as its prefix, nor a plan a link's prefix", async () => {
    const biz = await paymentsBusiness();
    const planFirst = uniqueName("PlanFirst").replaceAll("-", "_");
    const plan = (order_id: string) =>
      api("POST", "/session", {
        key: biz.secretKey,
        body: sessionBody({ order_id, subscription: { interval: "month" } }),
      });
    expect((await plan(planFirst)).status).toBe(201);
    const refused = await api<Record<string, string[]>>("POST", "/payment-links", {
      key: biz.secretKey,
      body: linkBody({ order_prefix: planFirst }),
    });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body)).toEqual(["order_prefix"]);
    expect(
      await testDb().select().from(paymentLinks).where(eq(paymentLinks.businessId, biz.business.id)),
    ).toEqual([]);

    const linkFirst = uniqueName("LinkFirst").replaceAll("-", "_");
    const link = await newLink(biz.secretKey, { order_prefix: linkFirst });
    expectFieldErrors(await plan(linkFirst), ["order_id"]);
    // A one-off session on that order id is harmless, and the link keeps making sessions.
    expect(
      (await api("POST", "/session", { key: biz.secretKey, body: sessionBody({ order_id: linkFirst }) }))
        .status,
    ).toBe(201);
    for (const n of [1, 2, 3]) {
      const made = await visit(link);
      expect(made.response.status, made.text).toBe(303);
      expect((await sessionOf(made.sessionId!)).orderId).toBe(`${linkFirst}-${n}`);
    }
  });
});

describe("GET /payment-links", () => {
  it("pages with limit and starting_after", async () => {
    const biz = await paymentsBusiness();
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await newLink(biz.secretKey)).id);
    const first = await api<{ data: Link[]; has_more: boolean }>("GET", "/payment-links?limit=2", {
      key: biz.secretKey,
    });
    expect(first.status).toBe(200);
    expect(first.body.data.map((l) => l.id)).toEqual(made.slice(0, 2));
    expect(first.body.has_more).toBe(true);
    const next = await api<{ data: Link[]; has_more: boolean }>(
      "GET",
      `/payment-links?limit=2&starting_after=${made[1]}`,
      {
        key: biz.secretKey,
      },
    );
    expect(next.body.data.map((l) => l.id)).toEqual(made.slice(2));
    expect(next.body.has_more).toBe(false);
    const bad = await api<Record<string, string[]>>("GET", "/payment-links?limit=0", { key: biz.secretKey });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(["limit"]);
  });
});

describe("visiting a link", () => {
  it("answers 303 to a new session with the link's items, metadata and order id; a reload reuses it", async () => {
    const biz = await paymentsBusiness();
    const link = await newLink(biz.secretKey, { metadata: { campaign: "autumn" } });
    const first = await visit(link);
    expect(first.response.status).toBe(303);
    expect(first.location).toMatch(/\/checkout\/cs_/);
    const session = await sessionOf(first.sessionId!);
    expect(session).toMatchObject({
      amount: 5000,
      items,
      metadata: { campaign: "autumn" },
      orderId: `${link.order_prefix}-1`,
    });

    const reload = await visit(link, { cookie: first.cookie });
    expect(reload.response.status).toBe(303);
    expect(reload.sessionId).toBe(first.sessionId);

    const other = await visit(link);
    expect(other.sessionId).not.toBe(first.sessionId);
    expect((await sessionOf(other.sessionId!)).orderId).toBe(`${link.order_prefix}-2`);
    const linked = await testDb()
      .select()
      .from(paymentLinkSessions)
      .where(eq(paymentLinkSessions.linkId, link.id));
    expect(linked.map((l) => l.sessionId).sort()).toEqual([first.sessionId, other.sessionId].sort());
  });

  it("takes the payer's quantity within the link's bounds, and refuses any other", async () => {
    const biz = await paymentsBusiness();
    const link = await newLink(biz.secretKey, {
      amount: 1200,
      items: [{ name: "Seat", quantity: 1, price: 1200 }],
      adjustable_quantity: { minimum: 1, maximum: 4 },
    });
    const three = await visit(link, { query: "?quantity=3" });
    expect(three.response.status).toBe(303);
    expect(await sessionOf(three.sessionId!)).toMatchObject({
      amount: 3600,
      items: [{ name: "Seat", quantity: 3, price: 1200 }],
    });
    const five = await visit(link, { query: "?quantity=5" });
    expect(five.response.status).toBe(400);
    expect(five.text).toMatch(/from 1 to 4/);
  });

  it("the checkout offers the quantity: the same one reuses the visit's session, another makes a new one", async () => {
    const biz = await paymentsBusiness();
    const link = await newLink(biz.secretKey, {
      amount: 1200,
      items: [{ name: "Seat", quantity: 1, price: 1200 }],
      adjustable_quantity: { minimum: 1, maximum: 4 },
    });
    const first = await visit(link);
    const slug = new URL(link.url).pathname.split("/").pop()!;
    expect(await linkQuantityChoice(testDb(), first.sessionId!)).toEqual({
      slug,
      minimum: 1,
      maximum: 4,
      quantity: 1,
    });
    // The checkout's form sends ?quantity=: the same quantity is a reload.
    const same = await visit(link, { cookie: first.cookie, query: "?quantity=1" });
    expect(same.sessionId).toBe(first.sessionId);
    const two = await visit(link, { cookie: first.cookie, query: "?quantity=2" });
    expect(two.sessionId).not.toBe(first.sessionId);
    expect(await sessionOf(two.sessionId!)).toMatchObject({
      amount: 2400,
      items: [{ name: "Seat", quantity: 2, price: 1200 }],
    });
    expect(await linkQuantityChoice(testDb(), two.sessionId!)).toMatchObject({ quantity: 2 });
    // A reload of the new visit finds the new session; a bad quantity changes nothing.
    expect((await visit(link, { cookie: two.cookie, query: "?quantity=2" })).sessionId).toBe(two.sessionId);
    expect((await visit(link, { cookie: two.cookie, query: "?quantity=9" })).response.status).toBe(400);
    // A link without a quantity range offers none.
    const fixed = await newLink(biz.secretKey);
    expect(await linkQuantityChoice(testDb(), (await visit(fixed)).sessionId!)).toBeNull();
  });

  it("a deactivated link shows a page saying so; reactivated, it works again", async () => {
    const biz = await paymentsBusiness();
    const link = await newLink(biz.secretKey);
    const off = await api<Link>("POST", `/payment-links/${link.id}/deactivate`, { key: biz.secretKey });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    const closed = await visit(link);
    expect(closed.response.status).toBe(410);
    expect(closed.text).toMatch(/deactivated/);
    expect(closed.location).toBeNull();
    const on = await api<Link>("POST", `/payment-links/${link.id}/activate`, { key: biz.secretKey });
    expect(on.body.active).toBe(true);
    expect((await visit(link)).response.status).toBe(303);
    const actions = await testDb().select().from(auditEvents).where(eq(auditEvents.targetId, link.id));
    expect(actions.map((a) => a.action).sort()).toEqual([
      "payment_link.activate",
      "payment_link.create",
      "payment_link.deactivate",
    ]);
    const missing = await api("POST", "/payment-links/plink_nope/deactivate", { key: biz.secretKey });
    expect(missing.status).toBe(404);
  });

  it("an exhausted link (max_uses) and an expired one make no session", async () => {
    const biz = await paymentsBusiness();
    const link = await newLink(biz.secretKey, { max_uses: 1 });
    expect((await visit(link)).response.status).toBe(303);
    const used = await visit(link);
    expect(used.response.status).toBe(410);
    expect(used.text).toMatch(/limit of uses/);

    const soon = await newLink(biz.secretKey, { expires_at: new Date(Date.now() + 60_000).toISOString() });
    await testDb()
      .update(paymentLinks)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(paymentLinks.id, soon.id));
    const expired = await visit(soon);
    expect(expired.response.status).toBe(410);
    expect(expired.text).toMatch(/expired/);
    const made = await testDb()
      .select()
      .from(paymentLinkSessions)
      .where(eq(paymentLinkSessions.linkId, soon.id));
    expect(made).toEqual([]);
  });

  it("racing visits never pass max_uses", async () => {
    const biz = await paymentsBusiness();
    const link = await newLink(biz.secretKey, { max_uses: 2 });
    const answers = await Promise.all([0, 1, 2, 3].map(() => visit(link)));
    expect(answers.filter((a) => a.response.status === 303)).toHaveLength(2);
    expect(answers.filter((a) => a.response.status === 410)).toHaveLength(2);
  });

  it("limits new sessions per IP", async () => {
    const biz = await paymentsBusiness();
    const link = await newLink(biz.secretKey);
    const ip = "192.0.2.77";
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await visit(link, { ip }));
    expect(answers.slice(0, 5).every((a) => a.response.status === 303)).toBe(true);
    expect(answers[5]!.response.status).toBe(429);
    expect(Number(answers[5]!.response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another IP is not limited.
    expect((await visit(link)).response.status).toBe(303);
  });

  it("lists the sessions a link made with their payments, paged; another business's link is 404", async () => {
    const biz = await paymentsBusiness();
    const link = await newLink(biz.secretKey);
    const made = [await visit(link), await visit(link), await visit(link)].map((v) => v.sessionId!);
    const paid = await helperPay(biz, made[1]!);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const first = await api<{
      data: { session_id: string; status: string; order_id: string }[];
      has_more: boolean;
    }>("GET", `/payment-links/${link.id}/sessions?limit=2`, { key: biz.secretKey });
    expect(first.status).toBe(200);
    expect(first.body.has_more).toBe(true);
    expect(first.body.data.map((p) => p.session_id)).toEqual([made[0], made[1]].sort());
    const second = await api<{ data: { session_id: string }[]; has_more: boolean }>(
      "GET",
      `/payment-links/${link.id}/sessions?limit=2&starting_after=${first.body.data[1]!.session_id}`,
      { key: biz.secretKey },
    );
    expect(second.body).toEqual({
      data: [expect.objectContaining({ session_id: made[2] })],
      has_more: false,
    });
    // Each as GET /payment answers it.
    const one = await api("GET", `/payment/${made[1]}`, { key: biz.secretKey });
    expect(first.body.data.find((p) => p.session_id === made[1])).toEqual(one.body);
    expect(one.body).toMatchObject({ status: "succeeded", order_id: `${link.order_prefix}-2` });

    const other = await paymentsBusiness();
    expect((await api("GET", `/payment-links/${link.id}/sessions`, { key: other.secretKey })).status).toBe(
      404,
    );
    const bad = await api<{ starting_after?: string[]; limit?: string[] }>(
      "GET",
      `/payment-links/${link.id}/sessions?limit=0&starting_after=x`,
      { key: biz.secretKey },
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body).sort()).toEqual(["limit", "starting_after"]);
    expect((await api("GET", `/payment-links/${link.id}/sessions`, { key: biz.publicKey })).status).toBe(401);
  });

  it("an unknown slug is a 404 page", async () => {
    const res = await getPaymentLinkVisit(new Request("http://kassa.test/l/nope"), { slug: "nope" });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
  });
});
