import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dispatch } from "@/lib/api/routes";
import { exportColumns } from "@/lib/exports/export-columns";
import { exportKinds } from "@/lib/exports/export-filters";
import { exportPageSize } from "@/lib/exports/stream-export";
import { createPayout } from "@/lib/payouts/create-payout";
import { clientIpHeader } from "@/lib/http/client-ip";
import { parseCsv } from "@/test/csv";
import { api, createTestBusiness, sessionBody, testDb } from "@/test/helpers";
import { expectFieldErrors } from "@/test/api-assertions";

type Biz = Awaited<ReturnType<typeof createTestBusiness>>;

/** A CSV download through the router, as a merchant's script makes it. */
async function download(key: string | null, path: string) {
  const headers = new Headers({ [clientIpHeader]: "203.0.113.10" });
  if (key) headers.set("authorization", `Bearer ${key}`);
  const response = await dispatch(new Request(`http://kassa.test/api${path}`, { headers }), "/api");
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

async function rowsOf(biz: Biz, path: string) {
  const got = await download(biz.secretKey, path);
  expect(got.status, got.text).toBe(200);
  return parseCsv(got.text);
}

const hostile = [
  '=HYPERLINK("http://evil.example","x")',
  "+1+2",
  "-2+3",
  "@SUM(A1:A9)",
  '"quoted", with comma',
  "two\nlines",
];

describe("GET /exports/{kind}.csv", () => {
  it.each([...exportKinds])("%s: text/csv attachment, header row first, secret key only", async (kind) => {
    const biz = await createTestBusiness();
    const got = await download(biz.secretKey, `/exports/${kind}.csv`);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(got.headers.get("content-disposition")).toMatch(
      new RegExp(`^attachment; filename="${kind}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    expect(parseCsv(got.text)[0]).toEqual([...exportColumns[kind]]);
    expect((await download(null, `/exports/${kind}.csv`)).status).toBe(401);
    expect((await download(biz.publicKey, `/exports/${kind}.csv`)).status).toBe(401);
  });

  it("payments: quotes per RFC 4180 and makes formulas inert; filters by status and date range", async () => {
    const biz = await createTestBusiness();
    const created: string[] = [];
    for (const orderId of hostile) {
      const res = await api<{ session_id: string }>("POST", "/session", {
        key: biz.secretKey,
        body: sessionBody({ order_id: orderId }),
      });
      expect(res.status).toBe(201);
      created.push(res.body.session_id);
    }
    const [header, ...rows] = await rowsOf(biz, "/exports/payments.csv");
    const col = (name: string) => header!.indexOf(name);
    expect(rows.map((r) => r[col("session_id")])).toEqual(created); // oldest first
    expect(rows.map((r) => r[col("order_id")])).toEqual([
      `'=HYPERLINK("http://evil.example","x")`,
      "'+1+2",
      "'-2+3",
      "'@SUM(A1:A9)",
      '"quoted", with comma',
      "two\nlines",
    ]);
    expect(rows.every((r) => r[col("status")] === "open" && r[col("amount")] === "2500")).toBe(true);

    expect(await rowsOf(biz, "/exports/payments.csv?status=succeeded")).toHaveLength(1);
    expect(await rowsOf(biz, "/exports/payments.csv?created_from=2999-01-01")).toHaveLength(1);
    expect(await rowsOf(biz, "/exports/payments.csv?created_until=2000-01-01T00:00:00Z")).toHaveLength(1);
    expect(
      await rowsOf(biz, "/exports/payments.csv?created_from=2000-01-01&created_until=2999-01-01"),
    ).toHaveLength(7);
    expect(await rowsOf(biz, `/exports/payments.csv?q=${created[2]}`)).toHaveLength(2);
  });

  it("payout users and ledger entries: balances, negative amounts stay numbers, filters apply", async () => {
    const biz = await createTestBusiness({ payoutsEnabled: true });
    expect(
      (await api("POST", "/sandbox/payout-balance", { key: biz.secretKey, body: { amount: 10_000 } })).status,
    ).toBe(200);
    const business = biz.business;
    await createPayout(testDb(), business, { email: "ann@example.com", amount: 1500 });
    await createPayout(testDb(), business, { email: "=cmd@example.com", amount: 500 });

    const [header, ...users] = await rowsOf(biz, "/exports/payout-users.csv");
    expect(header).toEqual([...exportColumns["payout-users"]]);
    expect(users.map((u) => [u[1], u[2], u[3]])).toEqual([
      ["ann@example.com", "active", "1500"],
      ["'=cmd@example.com", "active", "500"],
    ]);
    expect(await rowsOf(biz, "/exports/payout-users.csv?status=inactive")).toHaveLength(1);

    const [, ...entries] = await rowsOf(biz, "/exports/ledger-entries.csv?kind=payout_allocation");
    expect(entries).toHaveLength(4);
    expect(entries.map((e) => Number(e[6])).sort((a, b) => a - b)).toEqual([-1500, -500, 500, 1500]);
    const [, ...payoutBalance] = await rowsOf(biz, "/exports/ledger-entries.csv?account=payout_balance");
    expect(payoutBalance.map((e) => e[6])).toEqual(["10000", "-1500", "-500"]);
  });

  it.each([
    ["/exports/payments.csv?status=paid", "status"],
    ["/exports/payments.csv?created_from=2026-02-30", "created_from"],
    ["/exports/payments.csv?created_from=yesterday", "created_from"],
    ["/exports/refunds.csv?session_id=pay_1", "session_id"],
    ["/exports/subscriptions.csv?status=gone", "status"],
    ["/exports/payout-users.csv?status=all", "status"],
    ["/exports/ledger-entries.csv?account=bank", "account"],
    ["/exports/ledger-entries.csv?created_from=2026-12-01&created_until=2026-11-01", "created_until"],
  ])("%s is a 400 naming %s", async (path, field) => {
    const biz = await createTestBusiness();
    const res = await api("GET", path, { key: biz.secretKey });
    expect(res.status).toBe(400);
    expectFieldErrors(res, [field]);
  });

  it.each([exportPageSize, exportPageSize + 1])(
    "%i rows (a page of 1,000, and one past): every row once, in order",
    async (total) => {
      const biz = await createTestBusiness();
      // Ids unique to this business (the last 18 characters of its own id), sorting like real ones.
      const tag = biz.business.id.slice(-18);
      await testDb().execute(sql`
      INSERT INTO payout_users (id, business_id, email, email_normalized, hash_digest, hash_enc, hash_prefix)
      SELECT 'pu_' || ${tag} || lpad(i::text, 8, '0'), ${biz.business.id}, 'u' || i || '@example.com', 'u' || i || '@example.com',
             ${biz.business.id} || ':' || i, 'x', 'x'
      FROM generate_series(1, ${total}) AS i`);
      const rows = (await rowsOf(biz, "/exports/payout-users.csv")).slice(1);
      expect(rows.map((r) => r[0])).toEqual(
        Array.from({ length: total }, (_, i) => `pu_${tag}${String(i + 1).padStart(8, "0")}`),
      );
    },
  );

  it("created_until equal to created_from is an empty range (200, the header only); a minute before is a 400", async () => {
    const biz = await createTestBusiness();
    expect((await api("POST", "/session", { key: biz.secretKey, body: sessionBody() })).status).toBe(201);
    const at = "2026-11-01T00:00:00Z";
    const rows = await rowsOf(biz, `/exports/payments.csv?created_from=${at}&created_until=${at}`);
    expect(rows).toEqual([[...exportColumns.payments]]);
    const bad = await api(
      "GET",
      `/exports/payments.csv?created_from=${at}&created_until=2026-10-31T23:59:00Z`,
      { key: biz.secretKey },
    );
    expectFieldErrors(bad, ["created_until"]);
  });
});
