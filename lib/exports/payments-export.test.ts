import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { payments, sessions } from "@/db/schema";
import { exportColumns } from "@/lib/exports/export-columns";
import { parseCsv } from "@/test/csv";
import { api, createTestBusiness, sessionBody, testDb } from "@/test/helpers";
import { streamExport } from "./stream-export";

/** The export as parsed CSV records, header first. */
async function exported(businessId: string): Promise<Record<string, string>[]> {
  const stream = await streamExport(testDb(), businessId, "payments", {});
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
