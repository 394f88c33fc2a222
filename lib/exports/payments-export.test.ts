import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { payments, sessions } from "@/db/schema";
import { exportColumns } from "@/lib/exports/export-columns";
import { parseCsv } from "@/test/csv";
import { api, createTestBusiness, sessionBody, testDb } from "@/test/helpers";
import { streamExport } from "./stream-export";

/** The export as parsed CSV records, header first. */
async function exported(businessId: string, q?: string): Promise<Record<string, string>[]> {
  const stream = await streamExport(testDb(), businessId, "payments", q === undefined ? {} : { q });
  const [header, ...rows] = parseCsv(await new Response(stream).text());
  expect(header).toEqual([...exportColumns.payments]);
  return rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]!])));
}

describe("the payments export's cells", () => {
  it("a paid and partly refunded payment, an expired session and an open one, each column", async () => {
    const biz = await createTestBusiness();
    const ids: string[] = [];
    for (const email of ["session@example.com", "expired@example.com", null]) {
      const res = await api<{ session_id: string }>("POST", "/session", {
        key: biz.secretKey,
        body: sessionBody({ customer: "cus_export", ...(email ? { email } : {}) }),
      });
      expect(res.status).toBe(201);
      ids.push(res.body.session_id);
    }
    const [paid, expired, open] = ids as [string, string, string];
    const [session] = await testDb().select().from(sessions).where(eq(sessions.id, paid));
    // A payment as the providers leave it: the payer's own e-mail, fees, a refund under way.
    await testDb()
      .insert(payments)
      .values({
        id: `pay_export_${paid}`,
        sessionId: paid,
        businessId: biz.business.id,
        status: "succeeded",
        amount: 2500,
        fees: 120,
        netAmount: 2380,
        amountReceived: 2500,
        refundedAmount: 700,
        paymentMethod: "sandbox_pix_br",
        customerDetails: { email: "payer@example.org", name: "Payer" },
        completedAt: "2026-01-02 03:04:05.123456+00",
      });
    await testDb()
      .update(sessions)
      .set({ expiresAt: "2000-01-01 00:00:00+00" })
      .where(eq(sessions.id, expired));

    const rows = await exported(biz.business.id);
    expect(rows.map((r) => r.session_id)).toEqual([paid, expired, open]);
    expect(rows[0]).toEqual({
      session_id: paid,
      order_id: session!.orderId,
      status: "succeeded",
      amount: "2500",
      currency: "USD",
      amount_received: "2500",
      fees: "120",
      net_amount: "2380",
      refunded_amount: "700",
      payment_method: "sandbox_pix_br",
      customer: "cus_export",
      customer_email: "payer@example.org", // the payer's, over the session's
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
      completed_at: "2026-01-02T03:04:05.123456Z",
      dispute_status: "",
    });
    expect(rows[1]).toMatchObject({
      status: "expired",
      amount_received: "",
      fees: "",
      net_amount: "",
      refunded_amount: "0",
      payment_method: "",
      customer_email: "expired@example.com",
      completed_at: "",
    });
    expect(rows[2]).toMatchObject({ status: "open", customer_email: "", refunded_amount: "0" });
  });
});

describe("the payments export's search (q)", () => {
  it("matches what the dashboard's search matches, the payer's e-mail included", async () => {
    const biz = await createTestBusiness();
    const ids: string[] = [];
    for (const body of [
      { customer: "cus_q_one", email: "session-only@example.com", order_id: "Q-ORDER-1" },
      { customer: "cus_q_two", order_id: "Q-ORDER-2" },
      { customer: "cus_q_three", order_id: "Q-ORDER-3" },
    ]) {
      const res = await api<{ session_id: string }>("POST", "/session", {
        key: biz.secretKey,
        body: sessionBody(body),
      });
      expect(res.status).toBe(201);
      ids.push(res.body.session_id);
    }
    const [one, two, three] = ids as [string, string, string];
    // The second session was made without an e-mail; its payer gave one at the checkout.
    await testDb()
      .insert(payments)
      .values({
        id: `pay_q_${two}`,
        sessionId: two,
        businessId: biz.business.id,
        status: "succeeded",
        amount: 2500,
        amountReceived: 2500,
        paymentMethod: "sandbox_pix_br",
        customerDetails: { email: "Payer.Only@Example.org" },
        completedAt: "2026-01-02 03:04:05.123456+00",
      });
    const found = async (q: string) => (await exported(biz.business.id, q)).map((r) => r.session_id);
    expect(await found("payer.only")).toEqual([two]);
    expect(await found("session-only@")).toEqual([one]);
    expect(await found("example")).toEqual([one, two]);
    expect(await found("q-order-3")).toEqual([three]);
    expect(await found("cus_q_three")).toEqual([three]);
    expect(await found(three)).toEqual([three]);
    // `%` and `_` are literal: no order id or e-mail holds them.
    expect(await found("%")).toEqual([]);
    expect(await found("Q_ORDER")).toEqual([]);
  });
});
