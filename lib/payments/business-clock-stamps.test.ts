import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ledgerEntries, ledgerTransactions, payoutEntries, payoutUsers, refunds } from "@/db/schema";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { parseDbTime } from "@/lib/time";
import { api, testDb } from "@/test/helpers";
import { refundPayment } from "./refund-payment";
import { reviewPayment } from "./review-payment";
import { helperPay, newSession, paymentRow, paymentsBusiness, withSandboxProviders } from "./testing/payment-fixtures";

// A sandbox business's clock stamps what it creates (issue 23 item 9): after a clock advance,
// refunds, ledger entries, payouts and review decisions carry the business's time, not real time.

withSandboxProviders();
verifyLedgerAfterEach();

const day = 86_400;

async function advancedBusiness() {
  const biz = await paymentsBusiness({ payoutsEnabled: true });
  const advanced = await api("POST", "/sandbox/clock/advance", { key: biz.secretKey, body: { seconds: 30 * day } });
  expect(advanced.status).toBe(200);
  return biz;
}

/** At least 29 days ahead of real time: the business's clock, not the database's now(). */
function onBusinessClock(stamp: string | null | undefined) {
  expect(stamp).toBeTruthy();
  expect(parseDbTime(stamp!).getTime()).toBeGreaterThan(Date.now() + 29 * day * 1000);
}

describe("timestamps on a sandbox business's clock", () => {
  it("a refund and its ledger transaction and entries", async () => {
    const biz = await advancedBusiness();
    const { session_id } = await newSession(biz);
    expect((await helperPay(biz, session_id)).body.status).toBe("succeeded");
    const refund = await refundPayment(testDb(), biz.business.id, session_id, { amount: 500 });
    expect(refund.status).toBe("succeeded");
    const [row] = await testDb().select().from(refunds).where(eq(refunds.id, refund.id));
    onBusinessClock(row!.createdAt);
    onBusinessClock(row!.completedAt);
    const [posted] = await testDb()
      .select()
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.id, row!.ledgerTransactionId!));
    onBusinessClock(posted!.createdAt);
    const entries = await testDb()
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.transactionId, posted!.id));
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) onBusinessClock(entry.createdAt);
  });

  it("a review decision", async () => {
    const biz = await advancedBusiness();
    const { session_id } = await newSession(biz);
    const held = await helperPay(biz, session_id, { card_number: "4000000000009235" });
    expect(held.body.status).toBe("pending_review");
    await reviewPayment(testDb(), biz.business.id, session_id, "accept");
    onBusinessClock((await paymentRow(session_id))!.reviewedAt);
  });

  it("a payout: the payout user and its history entry", async () => {
    const biz = await advancedBusiness();
    expect(
      (await api("POST", "/sandbox/payout-balance", { key: biz.secretKey, body: { amount: 5000 } })).status,
    ).toBe(200);
    const created = await api<{ hash: string }>("POST", "/payout/create", {
      key: biz.secretKey,
      body: { email: "ada@example.com", amount: 1200 },
    });
    expect(created.status).toBe(201);
    const [user] = await testDb().select().from(payoutUsers).where(eq(payoutUsers.businessId, biz.business.id));
    onBusinessClock(user!.createdAt);
    const [entry] = await testDb().select().from(payoutEntries).where(eq(payoutEntries.payoutUserId, user!.id));
    onBusinessClock(entry!.createdAt);
  });
});
