import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, disputes, refunds } from "@/db/schema";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { balanceOf, helperPay, newSession, paymentRow, paymentsBusiness } from "@/lib/payments/testing/payment-fixtures";
import { settleSandbox, withDisputeProviders } from "@/lib/disputes/testing/sandbox-settle";
import { sandboxStripeKey } from "@/lib/providers/stripe/sandbox-emulator";
import { sdkFor } from "@kassa/stripe-emulator/testing";
import { api, testDb } from "@/test/helpers";
import { withLoopbackApi } from "@/test/loopback-api";
import { getPaymentDetail } from "./get-payment-detail";
import { refundPaymentAs } from "./payment-actions";
import { staffFor } from "./testing-staff";

// Issue 41, item 15: a refund that fails reads as a failure with the provider's reason, the
// Refund button follows what can really be refunded, and the audit log says what happened.

withLoopbackApi();
verifyLedgerAfterEach();

const providers = withDisputeProviders();

type Biz = Awaited<ReturnType<typeof paymentsBusiness>>;

const disputeOf = async (biz: Biz, sessionId: string) =>
  (await testDb().select().from(disputes).where(and(eq(disputes.businessId, biz.business.id), eq(disputes.sessionId, sessionId))))[0];

const settle = (biz: Biz, ready: () => Promise<boolean>) => settleSandbox(providers(), biz.business.id, ready);

async function paid(biz: Biz, card = "4242424242424242", amount = 5500) {
  const { session_id } = await newSession(biz, { amount, items: [{ name: "Lamp", quantity: 1, price: amount }] });
  const res = await helperPay(biz, session_id, { card_number: card });
  expect(res.body.status).toBe("succeeded");
  return session_id;
}

const auditOf = (biz: Biz) =>
  testDb().select().from(auditEvents).where(eq(auditEvents.businessId, biz.business.id)).orderBy(asc(auditEvents.id));

const refund = (biz: Biz, session: string) => refundPaymentAs(testDb(), staffFor(biz.business.id, "owner"), { business: biz.business.id, session, amount: "" });

describe("refunding a charged-back payment from the dashboard", () => {
  it("is refused before anything is reserved, says why, and offers no Refund", async () => {
    const biz = await paymentsBusiness();
    // Balance enough for the refund: another payment's net.
    await paid(biz);
    const session = await paid(biz, "4000000000000259");
    await settle(biz, async () => Boolean(await disputeOf(biz, session)));
    const balance = await balanceOf(biz);
    expect(balance).toBeGreaterThan(0);

    const detail = await getPaymentDetail(testDb(), biz.business.id, session);
    expect(detail.payment.status).toBe("succeeded");
    expect(detail.internal.refundable).toBe(0);
    expect(detail.internal.notRefundableReason).toMatch(/charge(d)? ?back|disputed/i);

    const result = await refund(biz, session);
    expect(result).toMatchObject({ ok: false, error: "payment_not_refundable" });
    expect(result.message).toMatch(/disputed/);
    expect(await testDb().select().from(refunds).where(eq(refunds.sessionId, session))).toEqual([]);
    expect((await auditOf(biz)).filter((e) => e.action.startsWith("payment.refund"))).toEqual([]);
    expect(await balanceOf(biz)).toBe(balance);

    // The API says the same (Stripe's `charge_disputed`, before anything is reserved).
    const viaApi = await api("POST", `/payments/${session}/refund`, { key: biz.secretKey, body: {} });
    expect(viaApi.status).toBe(409);
    expect(viaApi.body).toMatchObject({ error: "payment_not_refundable", message: expect.stringContaining("disputed") });
  });
});

describe("a refund the provider refuses", () => {
  it("answers a failure with the provider's reason; the audit log records the refund and its failure", async () => {
    const biz = await paymentsBusiness();
    await paid(biz);
    const session = await paid(biz);
    const balance = await balanceOf(biz);
    // Disputed at Stripe; Kassa has not processed the dispute yet: Stripe refuses the refund itself.
    const key = sandboxStripeKey(biz.business.id);
    const intent = await sdkFor(providers().emulator, key).paymentIntents.retrieve((await paymentRow(session))!.providerPaymentId!);
    providers().emulator.disputeCharge(key, String(intent.latest_charge));

    const result = await refund(biz, session);
    expect(result).toMatchObject({ ok: false, error: "refund_failed" });
    expect(result.message).toContain("$55.00");
    expect(result.message).toMatch(/charged back/);
    expect(result.message).not.toMatch(/succeeded|cents/);
    expect(await balanceOf(biz)).toBe(balance);

    const events = (await auditOf(biz)).filter((e) => e.action.startsWith("payment.refund"));
    expect(events.map((e) => e.action)).toEqual(["payment.refund", "payment.refund_fail"]);
    const [reserved, failed] = events;
    expect(reserved!.changes).toMatchObject({ refund_status: { from: null, to: "pending" } });
    expect(failed).toMatchObject({ actorType: "user", targetId: session });
    expect(failed!.changes).toMatchObject({
      refunded_amount: { from: 5500, to: 0 },
      refund_status: { from: "pending", to: "failed" },
      failure_message: { from: null, to: expect.stringMatching(/charged back/) },
    });
  });

  it("a refund that succeeds still says so", async () => {
    const biz = await paymentsBusiness();
    const session = await paid(biz);
    const result = await refundPaymentAs(testDb(), staffFor(biz.business.id, "owner"), { business: biz.business.id, session, amount: "10.00" });
    expect(result).toMatchObject({ ok: true, message: "Refund of $10.00 succeeded." });
    const detail = await getPaymentDetail(testDb(), biz.business.id, session);
    expect(detail.internal.refundable).toBe(4500);
    expect(detail.internal.notRefundableReason).toBeNull();
    // The timeline speaks in dollars (issue 41, item 24), never in cents.
    expect(detail.timeline).toContainEqual(expect.objectContaining({ kind: "refund", detail: "$10.00" }));
    expect(detail.timeline.map((t) => `${t.title} ${t.detail ?? ""}`).join("\n")).not.toMatch(/cents/);
  });
});
