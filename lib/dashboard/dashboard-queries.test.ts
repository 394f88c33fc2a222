import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions, webhookEvents } from "@/db/schema";
import { PaymentNotFoundError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { getPayment } from "@/lib/payments/get-payment";
import { refundPayment } from "@/lib/payments/refund-payment";
import { helperPay, newSession, paymentsBusiness, withSandboxProviders } from "@/lib/payments/testing/payment-fixtures";
import { api, testDb } from "@/test/helpers";
import { getOverview } from "./get-overview";
import { getPaymentDetail } from "./get-payment-detail";
import { listPayments } from "./list-payments";
import { parsePaymentFilters } from "./payment-filters";

withSandboxProviders();
verifyLedgerAfterEach();

const succeeded = "4242424242424242";
const declinedCard = "4000000000000002";
const heldForReview = "4000000000009235";

describe("listPayments", () => {
  it("pages newest first with cursors both ways, and never shows another business's payments", async () => {
    const biz = await paymentsBusiness();
    const other = await paymentsBusiness();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await newSession(biz, { order_id: `page-${i}` })).session_id);
    await newSession(other, { order_id: "page-other" });
    const newest = [...ids].reverse();

    const first = await listPayments(testDb(), biz.business.id, {}, 2);
    expect(first.data.map((p) => p.session_id)).toEqual(newest.slice(0, 2));
    expect(first.previous).toBeNull();
    expect(first.next).toBe(newest[1]);

    const second = await listPayments(testDb(), biz.business.id, { after: first.next! }, 2);
    expect(second.data.map((p) => p.session_id)).toEqual(newest.slice(2, 4));
    expect(second.previous).toBe(newest[2]);

    const third = await listPayments(testDb(), biz.business.id, { after: second.next! }, 2);
    expect(third.data.map((p) => p.session_id)).toEqual(newest.slice(4));
    expect(third.next).toBeNull();

    const back = await listPayments(testDb(), biz.business.id, { before: third.previous! }, 2);
    expect(back.data.map((p) => p.session_id)).toEqual(newest.slice(2, 4));
    expect(back.next).toBe(newest[3]);
    expect(back.previous).toBe(newest[2]);
    const start = await listPayments(testDb(), biz.business.id, { before: back.previous! }, 2);
    expect(start.data.map((p) => p.session_id)).toEqual(newest.slice(0, 2));
    expect(start.previous).toBeNull();

    const all = await listPayments(testDb(), biz.business.id);
    expect(all.data).toHaveLength(5);
    expect(all.data.every((p) => p.order_id.startsWith("page-") && p.order_id !== "page-other")).toBe(true);
    // Each row is the interface's Payment object, as GET /payment/{session_id} answers it.
    // The interface's Payment, plus what is refunded (the list's status says refunded) and its dispute.
    expect(all.data[0]).toEqual({ ...(await getPayment(testDb(), biz.business, newest[0]!)), refunded_amount: 0, dispute: null });
  });

  it("searches by order_id, customer e-mail and session id; % and _ are literal", async () => {
    const biz = await paymentsBusiness();
    const a = await newSession(biz, { order_id: "shirt-100", email: "ada@example.com" });
    const b = await newSession(biz, { order_id: "mug_200" });
    await helperPay(biz, b.session_id, { card_number: succeeded, customer_details: { email: "grace@example.org" } });
    const c = await newSession(biz, { order_id: "poster-300" });

    const search = async (q: string) => (await listPayments(testDb(), biz.business.id, { q })).data.map((p) => p.session_id);
    expect(await search("shirt")).toEqual([a.session_id]);
    expect(await search("SHIRT-1")).toEqual([a.session_id]);
    expect(await search("ada@example")).toEqual([a.session_id]);
    expect(await search("grace@")).toEqual([b.session_id]);
    expect(await search(c.session_id)).toEqual([c.session_id]);
    expect(await search("_")).toEqual([b.session_id]);
    expect(await search("%")).toEqual([]);
    expect(await search("nothing-like-it")).toEqual([]);
  });

  it("filters by status (open and expired included), method and creation date", async () => {
    const biz = await paymentsBusiness();
    const paid = await newSession(biz);
    await helperPay(biz, paid.session_id, { card_number: succeeded });
    const refused = await newSession(biz);
    await helperPay(biz, refused.session_id, { card_number: declinedCard });
    const open = await newSession(biz);

    const statusOf = async (status: NonNullable<Parameters<typeof listPayments>[2]>["status"]) =>
      (await listPayments(testDb(), biz.business.id, { status })).data.map((p) => p.session_id);
    expect(await statusOf("succeeded")).toEqual([paid.session_id]);
    expect(await statusOf("failed")).toEqual([refused.session_id]);
    expect(await statusOf("open")).toEqual([open.session_id]);
    expect(await statusOf("expired")).toEqual([]);
    expect(await statusOf("pending_review")).toEqual([]);

    const byMethod = await listPayments(testDb(), biz.business.id, { method: "credit" });
    expect(byMethod.data.map((p) => p.session_id).sort()).toEqual([paid.session_id, refused.session_id].sort());
    expect((await listPayments(testDb(), biz.business.id, { method: "pix_br" })).data).toEqual([]);

    // Date range on the session's creation day (UTC), both ends included.
    await testDb().update(sessions).set({ createdAt: "2026-01-10T12:00:00Z" }).where(eq(sessions.id, open.session_id));
    const range = async (from?: string, to?: string) => (await listPayments(testDb(), biz.business.id, { from, to })).data.map((p) => p.session_id);
    expect(await range("2026-01-10", "2026-01-10")).toEqual([open.session_id]);
    expect(await range("2026-01-11", "2026-01-31")).toEqual([]);
    expect(await range(undefined, "2026-01-09")).toEqual([]);
    expect((await range("2026-01-01")).length).toBe(3);

    // An unpaid session past its 24 hours reads as expired before the expiry job runs.
    expect((await api("POST", "/sandbox/clock/advance", { key: biz.secretKey, body: { seconds: 25 * 3600 } })).status).toBe(200);
    expect(await statusOf("expired")).toEqual([open.session_id]);
    expect(await statusOf("open")).toEqual([]);
  });
});

describe("parsePaymentFilters", () => {
  it("keeps valid filters and explains every bad one without throwing", () => {
    expect(parsePaymentFilters({ q: "  order-1 ", status: "succeeded", from: "2026-11-01", to: "", after: undefined })).toEqual({
      ok: true,
      filters: { q: "order-1", status: "succeeded", from: "2026-11-01" },
    });
    const bad = parsePaymentFilters({ status: "paid", from: "2026-02-30", method: "credit", after: "../x", q: ["a", "b"] });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.error).toBe("validation_failed");
    expect(Object.keys(bad.fields).sort()).toEqual(["after", "from", "status"]);
    expect(bad.filters).toEqual({ method: "credit", q: "a" });
    expect(bad.message).toContain("Unknown status");
    const reversed = parsePaymentFilters({ from: "2026-11-20", to: "2026-11-01" });
    expect(reversed).toMatchObject({ ok: false, fields: { to: ["The end date is before the start date"] } });
    expect(parsePaymentFilters({ q: "x".repeat(201) })).toMatchObject({ ok: false, fields: { q: ["At most 200 characters"] } });
  });
});

describe("getOverview", () => {
  it("shows balances, succeeded volume per day, recent payments, the review queue and failing deliveries", async () => {
    const biz = await paymentsBusiness();
    const other = await paymentsBusiness();
    const paid = await newSession(biz, { amount: 2500 });
    await helperPay(biz, paid.session_id, { card_number: succeeded });
    const paid2 = await newSession(biz, { amount: 1000, items: [{ name: "Mug", quantity: 1, price: 1000 }] });
    await helperPay(biz, paid2.session_id, { card_number: succeeded });
    const held = await newSession(biz);
    await helperPay(biz, held.session_id, { card_number: heldForReview });
    const otherHeld = await newSession(other);
    await helperPay(other, otherHeld.session_id, { card_number: heldForReview });

    // Webhook events as the delivery job leaves them: one failed for good, one retrying, one delivered,
    // one not attempted yet.
    const event = (status: "failed" | "pending" | "delivered", lastError: string | null, businessId = biz.business.id) => ({
      id: newId("event"),
      businessId,
      type: "succeeded" as const,
      sessionId: businessId === biz.business.id ? paid.session_id : otherHeld.session_id,
      orderId: "o",
      body: "{}",
      status,
      attemptCount: 4,
      lastError,
    });
    const failed = event("failed", "HTTP 500");
    const retrying = event("pending", "timeout");
    await testDb().insert(webhookEvents).values([
      failed,
      retrying,
      event("delivered", null),
      event("pending", null),
      event("failed", "HTTP 500", other.business.id),
    ]);

    const overview = await getOverview(testDb(), biz.business.id, { days: 7 });
    expect(overview.currency).toBe("USD");
    expect(overview.balance).toBeGreaterThan(0);
    expect(overview.balance).toBeLessThan(3500);
    expect(overview.payoutBalance).toBe(0);
    expect(overview.days).toHaveLength(7);
    const today = new Date().toISOString().slice(0, 10);
    expect(overview.days.at(-1)).toEqual({ day: today, volume: 3500, count: 2 });
    expect(overview.days.slice(0, 6).every((d) => d.volume === 0 && d.count === 0)).toBe(true);
    expect(overview.recentPayments.map((p) => p.session_id).sort()).toEqual([paid.session_id, paid2.session_id, held.session_id].sort());
    expect(overview.waitingForReview.map((p) => p.session_id)).toEqual([held.session_id]);
    expect(overview.failingDeliveries.map((d) => d.id).sort()).toEqual([failed.id, retrying.id].sort());
    expect(overview.failingDeliveries.find((d) => d.id === failed.id)).toMatchObject({ status: "failed", lastError: "HTTP 500", attempts: 4 });
  });

  it("is empty for a new business", async () => {
    const biz = await paymentsBusiness();
    const overview = await getOverview(testDb(), biz.business.id);
    expect(overview).toMatchObject({ balance: 0, payoutBalance: 0, recentPayments: [], waitingForReview: [], failingDeliveries: [] });
    expect(overview.days).toHaveLength(30);
    await expect(getOverview(testDb(), "biz_missing")).rejects.toMatchObject({ code: "business_not_found" });
  });
});

describe("getPaymentDetail", () => {
  it("has the interface's Payment, the internal fields and a timeline of attempts, review and events", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz, { order_id: "detail-1" });
    await helperPay(biz, session_id, { card_number: declinedCard });
    await helperPay(biz, session_id, { card_number: heldForReview });

    const detail = await getPaymentDetail(testDb(), biz.business.id, session_id);
    expect(detail.payment).toEqual(await getPayment(testDb(), biz.business, session_id));
    expect(detail.payment.status).toBe("pending_review");
    expect(detail.internal).toMatchObject({ fraudDecision: "review", riskLevel: "elevated", refundedAmount: 0 });
    expect(detail.events.map((e) => e.type)).toEqual(["pending_review"]);
    const kinds = detail.timeline.map((t) => t.kind);
    expect(kinds[0]).toBe("session");
    expect(kinds.filter((k) => k === "attempt")).toHaveLength(2);
    expect(kinds).toContain("webhook");
    const times = detail.timeline.map((t) => t.at);
    expect([...times].sort()).toEqual(times);
  });

  it("shows each refund with the merchant's note", async () => {
    const biz = await paymentsBusiness();
    const { session_id } = await newSession(biz, { order_id: "detail-refund" });
    await helperPay(biz, session_id, { card_number: succeeded });
    await refundPayment(testDb(), biz.business.id, session_id, { amount: 500, note: "damaged in transit" });
    await refundPayment(testDb(), biz.business.id, session_id, { amount: 300 });

    const detail = await getPaymentDetail(testDb(), biz.business.id, session_id);
    expect(detail.refunds.map((r) => [r.amount, r.status, r.note])).toEqual([
      [500, "succeeded", "damaged in transit"],
      [300, "succeeded", null],
    ]);
    expect(detail.timeline.filter((t) => t.title.startsWith("Refund requested")).map((t) => t.detail)).toEqual([
      "$5.00: damaged in transit",
      "$3.00",
    ]);
  });

  it("is not found for another business's session, an unknown one or a malformed id", async () => {
    const biz = await paymentsBusiness();
    const other = await paymentsBusiness();
    const { session_id } = await newSession(other);
    for (const id of [session_id, "cs_unknown", "../etc", "cs_" + "a".repeat(100), "cs_\u0000"]) {
      await expect(getPaymentDetail(testDb(), biz.business.id, id)).rejects.toBeInstanceOf(PaymentNotFoundError);
    }
  });
});
