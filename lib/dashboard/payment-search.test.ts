import { and, desc, eq, ilike, or, sql } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { payments, sessions } from "@/db/schema";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import {
  helperPay,
  newSession,
  paymentsBusiness,
  withSandboxProviders,
} from "@/lib/payments/testing/payment-fixtures";
import { testDb } from "@/test/helpers";
import { listPayments, paymentSearch } from "./list-payments";
import type { PaymentFilters } from "./payment-filters";

withSandboxProviders();
verifyLedgerAfterEach();

const succeeded = "4242424242424242";

/**
 * The search as it was written before decision 0082, one OR across sessions and payments: the
 * list's answers must be this query's, row for row, in the same order.
 */
async function before(businessId: string, q: string, status?: "succeeded"): Promise<string[]> {
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await testDb()
    .select({ id: sessions.id })
    .from(sessions)
    .leftJoin(payments, eq(payments.sessionId, sessions.id))
    .where(
      and(
        eq(sessions.businessId, businessId),
        or(
          eq(sessions.id, q),
          ilike(sessions.orderId, like),
          ilike(sessions.customerEmail, like),
          sql`${payments.customerDetails}->>'email' ilike ${like}`,
          eq(sessions.customer, q),
        ),
        status ? eq(payments.status, status) : undefined,
      ),
    )
    .orderBy(desc(sessions.id));
  return rows.map((r) => r.id);
}

/** Every page of a search, forwards from the first and backwards from the last, `size` rows a page. */
async function walk(businessId: string, filters: PaymentFilters, size: number) {
  const forwards: string[][] = [];
  let page = await listPayments(testDb(), businessId, filters, size);
  forwards.push(page.data.map((p) => p.session_id));
  while (page.next) {
    page = await listPayments(testDb(), businessId, { ...filters, after: page.next }, size);
    forwards.push(page.data.map((p) => p.session_id));
  }
  const backwards: string[][] = [];
  while (page.previous) {
    page = await listPayments(testDb(), businessId, { ...filters, before: page.previous }, size);
    backwards.unshift(page.data.map((p) => p.session_id));
  }
  return { forwards, backwards };
}

// Both ways of running the search: the business's own rows read in order (a business with few
// sessions, as every test business is), and the trigram indexes (forced with a limit of 0).
describe.each([
  { way: "the business's rows read in order", walkLimit: paymentSearch.walkLimit },
  { way: "trigram indexes, two index-driven queries", walkLimit: 0 },
])("listPayments search ($way)", ({ walkLimit }) => {
  let businessId = "";
  const s: Record<string, string> = {};
  const saved = paymentSearch.walkLimit;
  beforeEach(() => {
    paymentSearch.walkLimit = walkLimit;
  });
  afterEach(() => {
    paymentSearch.walkLimit = saved;
  });

  beforeAll(async () => {
    const biz = await paymentsBusiness();
    const other = await paymentsBusiness();
    businessId = biz.business.id;
    const make = async (name: string, fields: Record<string, unknown>, payer?: string) => {
      s[name] = (await newSession(biz, fields)).session_id;
      if (payer)
        await helperPay(biz, s[name], { card_number: succeeded, customer_details: { email: payer } });
    };
    await make("ada", { order_id: "shirt-100", email: "Ada.Lovelace@Example.com", customer: "cus_ada" });
    await make("unpaidNoEmail", { order_id: "mug_200" }, "grace@example.org");
    await make("both", { order_id: "poster-300", email: "ada@example.com" }, "ADA@work.example");
    await make("percent", { order_id: "50%_off", email: "promo_user@example.com" });
    await make("lookalike", { order_id: "500-off", email: "promoXuser@example.com" });
    await make("customer", { order_id: "order-6", customer: "ada" }, "linus@example.net");
    await make("sessionGrace", { order_id: "order-7", email: "grace@example.org" });
    await make("payerOnly", { order_id: "order-8", email: "x@example.com" }, "grace.hopper@navy.example");
    await make("backslash", { order_id: "back\\slash-9", email: "b@example.com" });
    for (let i = 0; i < 4; i++)
      await make(
        `bulk${i}`,
        { order_id: `bulk-${i}`, email: `ada+${i}@example.com` },
        i % 2 ? "bulk@example.com" : undefined,
      );
    await newSession(other, { order_id: "shirt-999", email: "ada@example.com", customer: "ada" });
  });

  it("finds a piece of an address, a whole one, any case, in the session's e-mail or the payer's", async () => {
    const ids = async (q: string) =>
      (await listPayments(testDb(), businessId, { q })).data.map((p) => p.session_id);
    const bulk = [3, 2, 1, 0].map((i) => s[`bulk${i}`]);
    // Session ids sort by creation: newest first.
    expect(await ids("ada")).toEqual([...bulk, s.customer, s.both, s.ada]);
    expect(await ids("ADA@")).toEqual([s.both]);
    expect(await ids("ada@example.com")).toEqual([s.both]);
    expect(await ids("Ada.Lovelace@Example.com")).toEqual([s.ada]);
    expect(await ids("grace")).toEqual([s.payerOnly, s.sessionGrace, s.unpaidNoEmail]);
    expect(await ids("navy.example")).toEqual([s.payerOnly]);
    expect(await ids("bulk@")).toEqual([s.bulk3, s.bulk1]);
    expect(await ids("cus_ada")).toEqual([s.ada]);
    expect(await ids(s.lookalike!)).toEqual([s.lookalike]);
    expect(await ids("nobody-has-this")).toEqual([]);
  });

  it("searches % and _ and \\ literally", async () => {
    const ids = async (q: string) =>
      (await listPayments(testDb(), businessId, { q })).data.map((p) => p.session_id);
    expect(await ids("promo_user")).toEqual([s.percent]);
    expect(await ids("50%")).toEqual([s.percent]);
    expect(await ids("%_")).toEqual([s.percent]);
    expect(await ids("%")).toEqual([s.percent]);
    expect(await ids("_")).toEqual([s.percent, s.unpaidNoEmail]);
    expect(await ids("k\\s")).toEqual([s.backslash]);
  });

  it("answers exactly what the single OR query answered, page by page in both directions", async () => {
    const queries = [
      "ada",
      "A",
      "ex",
      "example",
      "EXAMPLE.COM",
      "grace",
      "_",
      "%",
      "\\",
      "ada@example.com",
      "bulk",
      "o",
    ];
    for (const q of queries)
      for (const status of [undefined, "succeeded"] as const) {
        const expected = await before(businessId, q, status);
        for (const size of [1, 2, 3]) {
          const { forwards, backwards } = await walk(businessId, { q, status }, size);
          expect(forwards.flat(), `${q} ${status} ${size}`).toEqual(expected);
          expect(forwards.every((p, i) => p.length === size || i === forwards.length - 1)).toBe(true);
          // Back from the last page: the same pages, the first one included.
          if (forwards.length > 1)
            expect(backwards, `${q} ${status} ${size} back`).toEqual(forwards.slice(0, -1));
        }
      }
  });
});
