import { and, eq, like } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { mailMessages, payments, receipts, sessions } from "@/db/schema";
import {
  advanceClock,
  pastFirstRenewal,
  received,
  runJobs,
  signUp,
  subscriptionBusiness,
  withLoopbackApi,
  withSubscriptionProviders,
} from "@/lib/subscriptions/testing/subscription-fixtures";
import { api, testDb } from "@/test/helpers";
import { setSendReceipts } from "./set-send-receipts";

// A plan's renewal sends its own receipt, once, in the language of the signup's checkout.

withLoopbackApi();
withSubscriptionProviders();

describe("renewal receipts", () => {
  it("the signup and each paid renewal get one receipt each; the renewal's speaks the signup's language", async () => {
    const { biz, receiver } = await subscriptionBusiness();
    await setSendReceipts(testDb(), biz.business.id, true);
    const { sessionId, orderId } = await signUp(biz);
    // The signup paid on a Spanish checkout page (the sandbox helper has no page: set it as the pay endpoint would).
    await testDb().update(payments).set({ locale: "es" }).where(eq(payments.sessionId, sessionId));
    await runJobs(biz.business.id);
    await receiver.waitForRequests(1);

    expect((await advanceClock(biz, pastFirstRenewal)).status).toBe(200);
    await vi.waitFor(
      () => expect(received(receiver).some((b) => b.type === "succeeded" && b.order_id === `${orderId}-2`)).toBe(true),
      { timeout: 30_000, interval: 100 },
    );
    const rows = await testDb()
      .select({ receipt: receipts, orderId: sessions.orderId })
      .from(receipts)
      .innerJoin(sessions, eq(sessions.id, receipts.sessionId))
      .where(and(eq(receipts.businessId, biz.business.id), like(sessions.orderId, `${orderId}%`)))
      .orderBy(receipts.createdAt);
    expect(rows.map((r) => r.orderId)).toEqual([orderId, `${orderId}-2`]);
    const renewal = rows[1]!.receipt;
    expect(renewal).toMatchObject({ kind: "payment", locale: "es", toAddress: "ada@example.com" });
    expect(renewal.content).toMatchObject({ cycle: 2, orderId: `${orderId}-2` });
    const [mail] = await testDb().select().from(mailMessages).where(eq(mailMessages.id, renewal.mailMessageId!));
    expect(mail!.subject).toBe(`Tu recibo de ${biz.business.name}`);
    expect(mail!.textBody).toContain("se ha renovado");

    // A refund of the renewal: its receipt goes to the same address, in the same language.
    const [renewalSession] = await testDb().select().from(sessions).where(eq(sessions.id, renewal.sessionId));
    const refunded = await api("POST", `/payments/${renewalSession!.id}/refund`, { key: biz.secretKey, body: { amount: 500 } });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(201);
    const refundReceipt = await vi.waitFor(
      async () => {
        const [row] = await testDb()
          .select()
          .from(receipts)
          .where(and(eq(receipts.sessionId, renewalSession!.id), eq(receipts.kind, "refund")));
        expect(row).toBeDefined();
        return row!;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(refundReceipt).toMatchObject({ locale: "es", toAddress: "ada@example.com" });
    expect(refundReceipt.content).toMatchObject({ refunded: 500 });
    const [refundMail] = await testDb().select().from(mailMessages).where(eq(mailMessages.id, refundReceipt.mailMessageId!));
    expect(refundMail!.subject).toBe(`Tu reembolso de ${biz.business.name}`);
  }, 120_000);
});
