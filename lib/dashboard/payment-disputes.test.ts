import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { disputes } from "@/db/schema";
import { streamExport } from "@/lib/exports/stream-export";
import { exportColumns } from "@/lib/exports/export-columns";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { helperPay, newSession, paymentsBusiness } from "@/lib/payments/testing/payment-fixtures";
import { settleSandbox, withDisputeProviders } from "@/lib/disputes/testing/sandbox-settle";
import { parseCsv } from "@/test/csv";
import { api, testDb } from "@/test/helpers";
import { withLoopbackApi } from "@/test/loopback-api";
import { getOverview } from "./get-overview";
import { getPaymentDetail } from "./get-payment-detail";
import { listPayments } from "./list-payments";
import { parsePaymentFilters } from "./payment-filters";

// Issue 41, item 17: a disputed payment keeps the interface's status (`succeeded`) and shows its
// dispute beside it in the list, the payment's header and the CSV; the list filters by it; the
// overview lists the disputes waiting for a response.

withLoopbackApi();
verifyLedgerAfterEach();

const providers = withDisputeProviders();

type Biz = Awaited<ReturnType<typeof paymentsBusiness>>;

const settle = (biz: Biz, ready: () => Promise<boolean>) => settleSandbox(providers(), biz.business.id, ready);

async function paid(biz: Biz, card: string) {
  const { session_id } = await newSession(biz);
  expect((await helperPay(biz, session_id, { card_number: card })).body.status).toBe("succeeded");
  return session_id;
}

async function exported(biz: Biz, query: Record<string, string> = {}) {
  const stream = await streamExport(testDb(), biz.business.id, "payments", query);
  const [header, ...rows] = parseCsv(await new Response(stream).text());
  expect(header).toEqual([...exportColumns.payments]);
  return rows.map((row) => Object.fromEntries(header!.map((name, i) => [name, row[i]!])));
}

describe("a disputed payment in the dashboard", () => {
  it("reads succeeded with its dispute beside it, is found by the Disputed filter, and waits on the overview", async () => {
    const biz = await paymentsBusiness();
    const plain = await paid(biz, "4242424242424242");
    const disputed = await paid(biz, "4000000000000259");
    await settle(biz, async () => {
      const rows = await testDb().select().from(disputes).where(and(eq(disputes.businessId, biz.business.id), eq(disputes.sessionId, disputed)));
      return rows.length === 1;
    });
    const [dispute] = await testDb().select().from(disputes).where(eq(disputes.sessionId, disputed));

    // The list: the interface's status, the dispute beside it.
    const all = await listPayments(testDb(), biz.business.id, {});
    const byId = new Map(all.data.map((p) => [p.session_id, p]));
    expect(byId.get(disputed)).toMatchObject({ status: "succeeded", dispute: { id: dispute!.id, status: "needs_response" } });
    expect(byId.get(plain)).toMatchObject({ status: "succeeded", dispute: null });

    // The filter.
    const filtered = parsePaymentFilters({ dispute: "any" });
    expect(filtered).toMatchObject({ ok: true, filters: { dispute: "any" } });
    expect((await listPayments(testDb(), biz.business.id, { dispute: "any" })).data.map((p) => p.session_id)).toEqual([disputed]);
    expect((await listPayments(testDb(), biz.business.id, { dispute: "needs_response" })).data.map((p) => p.session_id)).toEqual([disputed]);
    expect((await listPayments(testDb(), biz.business.id, { dispute: "lost" })).data).toEqual([]);
    expect(parsePaymentFilters({ dispute: "bogus", status: "succeeded" })).toMatchObject({ ok: false, fields: { dispute: expect.any(Array) }, filters: { status: "succeeded" } });

    // The payment's header.
    const detail = await getPaymentDetail(testDb(), biz.business.id, disputed);
    expect(detail.payment.status).toBe("succeeded");
    expect(detail.internal.dispute).toEqual({ id: dispute!.id, status: "needs_response" });
    expect((await getPaymentDetail(testDb(), biz.business.id, plain)).internal.dispute).toBeNull();

    // The overview: disputes waiting for a response, with what is at stake and when it is due.
    const overview = await getOverview(testDb(), biz.business.id);
    expect(overview.disputesNeedingResponse).toEqual([
      expect.objectContaining({ id: dispute!.id, sessionId: disputed, amount: 2500, status: "needs_response", evidenceDueBy: expect.any(String) }),
    ]);
    expect(overview.recentPayments.find((p) => p.session_id === disputed)).toMatchObject({ dispute: { status: "needs_response" } });

    // The CSV: the status column stays the interface's; the dispute has its own column, and filter.
    const rows = await exported(biz);
    expect(rows.find((r) => r.session_id === disputed)).toMatchObject({ status: "succeeded", dispute_status: "needs_response" });
    expect(rows.find((r) => r.session_id === plain)).toMatchObject({ status: "succeeded", dispute_status: "" });
    expect((await exported(biz, { dispute: "any" })).map((r) => r.session_id)).toEqual([disputed]);
    const bad = await api("GET", "/exports/payments.csv?dispute=bogus", { key: biz.secretKey });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ dispute: [expect.stringContaining("any")] });
  });
});
