import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, businesses, mailMessages, payments, receipts, sessions } from "@/db/schema";
import { withAuditActor } from "@/lib/audit/audit-actor";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import {
  newSession,
  paymentsBusiness,
  withSandboxProviders as withSandboxProviders,
} from "@/lib/payments/testing/payment-fixtures";
import { api, testDb } from "@/test/helpers";
import { getReceiptByToken } from "./get-receipt";
import { issueReceipt } from "./issue-receipt";
import { setSendReceipts } from "./set-send-receipts";

// Receipts end to end through the hosted checkout's pay endpoint (decision 0051): the payer's
// e-mail and language come from the page, the receipt and its message from the outbox.

withSandboxProviders();
verifyLedgerAfterEach();

const nextYear = new Date().getFullYear() + 1;
const card = { number: "4242424242424242", expMonth: 12, expYear: nextYear, cvc: "123" };
const browser = { "user-agent": "Mozilla/5.0 (receipt test)", "sec-fetch-site": "same-origin" };

type Biz = Awaited<ReturnType<typeof paymentsBusiness>>;

async function business(sendReceipts: boolean): Promise<Biz> {
  const biz = await paymentsBusiness();
  if (sendReceipts) await setSendReceipts(testDb(), biz.business.id, true);
  return biz;
}

/** Pays a new session on the hosted page's endpoint, in `language`, giving `email` (or none). */
async function payAtCheckout(biz: Biz, options: { email?: string; language?: string } = {}) {
  const { session_id } = await newSession(biz);
  const res = await api<Record<string, unknown>>("POST", `/checkout/sessions/${session_id}/pay`, {
    body: {
      paymentMethodId: "stripe_credit",
      card,
      ...(options.email ? { customerDetails: { name: "Ada Lovelace", email: options.email } } : {}),
    },
    ip: "81.2.69.142",
    headers: { ...browser, "accept-language": options.language ?? "en-US,en;q=0.9" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.status).toBe("succeeded");
  return session_id;
}

async function receiptsOf(sessionId: string) {
  return testDb().select().from(receipts).where(eq(receipts.sessionId, sessionId)).orderBy(receipts.createdAt);
}

async function mailOf(id: string | null) {
  const [row] = await testDb().select().from(mailMessages).where(eq(mailMessages.id, id ?? ""));
  return row;
}

describe("the payment receipt", () => {
  it("is written once with its e-mail when the business sends receipts; a replay sends nothing", async () => {
    const biz = await business(true);
    const sessionId = await payAtCheckout(biz, { email: "ada@example.com" });
    const [receipt, ...others] = await receiptsOf(sessionId);
    expect(others).toEqual([]);
    expect(receipt).toMatchObject({ kind: "payment", toAddress: "ada@example.com", locale: "en", currency: "USD" });
    expect(receipt!.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(receipt!.token).not.toContain(sessionId);
    const mail = await mailOf(receipt!.mailMessageId);
    expect(mail).toMatchObject({ kind: "receipt", toAddress: "ada@example.com", businessId: biz.business.id });
    expect(mail!.subject).toBe(`Your receipt from ${biz.business.name}`);
    expect(mail!.textBody).toContain("T-shirt × 2: $20.00");
    expect(mail!.textBody).toContain("Total paid: $25.00");
    expect(mail!.textBody).toContain("Visa ending in 4242");
    expect(mail!.textBody).toContain(`/receipts/${receipt!.token}`);

    // The success recorded again (a replayed event, a second settlement): no second receipt.
    const [session] = await testDb().select().from(sessions).where(eq(sessions.id, sessionId));
    const [payment] = await testDb().select().from(payments).where(eq(payments.sessionId, sessionId));
    const [row] = await testDb().select().from(businesses).where(eq(businesses.id, biz.business.id));
    await expect(testDb().transaction((tx) => issueReceipt(tx, { business: row!, session: session!, payment: payment! }))).resolves.toBeNull();
    expect(await receiptsOf(sessionId)).toHaveLength(1);
    const messages = await testDb()
      .select()
      .from(mailMessages)
      .where(and(eq(mailMessages.businessId, biz.business.id), eq(mailMessages.kind, "receipt")));
    expect(messages).toHaveLength(1);
  });

  it("is not sent when the business has receipts off (the default), nor without a payer e-mail", async () => {
    const off = await business(false);
    const paidOff = await payAtCheckout(off, { email: "bob@example.com" });
    expect(await receiptsOf(paidOff)).toEqual([]);
    const on = await business(true);
    const paidWithoutEmail = await payAtCheckout(on);
    expect(await receiptsOf(paidWithoutEmail)).toEqual([]);
    const messages = await testDb().select().from(mailMessages).where(eq(mailMessages.kind, "receipt"));
    expect(messages.filter((m) => m.businessId === off.business.id || m.businessId === on.business.id)).toEqual([]);
  });

  it("speaks the checkout's language, and so does the refund receipt", async () => {
    const biz = await business(true);
    const sessionId = await payAtCheckout(biz, { email: "ana@example.com", language: "es-ES,es;q=0.9" });
    const [receipt] = await receiptsOf(sessionId);
    expect(receipt!.locale).toBe("es");
    const mail = await mailOf(receipt!.mailMessageId);
    expect(mail!.subject).toBe(`Tu recibo de ${biz.business.name}`);
    expect(mail!.textBody).toContain("Total pagado");

    const refunded = await api("POST", `/payments/${sessionId}/refund`, { key: biz.secretKey, body: { amount: 1000 } });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(201);
    const all = await receiptsOf(sessionId);
    expect(all.map((r) => r.kind)).toEqual(["payment", "refund"]);
    const refundReceipt = all[1]!;
    expect(refundReceipt).toMatchObject({ locale: "es", toAddress: "ana@example.com" });
    expect(refundReceipt.content).toMatchObject({ refunded: 1000, total: 2500 });
    expect(refundReceipt.token).not.toBe(receipt!.token);
    const refundMail = await mailOf(refundReceipt.mailMessageId);
    expect(refundMail!.subject).toBe(`Tu reembolso de ${biz.business.name}`);
    expect(refundMail!.textBody).toMatch(/te ha reembolsado 10,00\s?US\$/);
  });
});

describe("the hosted receipt page's data", () => {
  it("finds the receipt by its token only", async () => {
    const biz = await business(true);
    const sessionId = await payAtCheckout(biz, { email: "page@example.com", language: "pt-BR" });
    const [receipt] = await receiptsOf(sessionId);
    const data = await getReceiptByToken(testDb(), receipt!.token);
    expect(data).toMatchObject({
      kind: "payment",
      locale: "pt-BR",
      currency: "USD",
      sandbox: true,
      logoUrl: null,
      content: {
        businessName: biz.business.name,
        total: 2500,
        fee: 0,
        method: { type: "card", brand: "visa", last4: "4242" },
        items: [
          { name: "T-shirt", quantity: 2, price: 1000 },
          { name: "Sticker", quantity: 1, price: 500 },
        ],
      },
    });
    expect(Date.parse(data!.content.paidAt)).toBeGreaterThan(Date.now() - 86_400_000);
    // Unknown and malformed tokens, and the session id, find nothing.
    expect(await getReceiptByToken(testDb(), "A".repeat(43))).toBeNull();
    expect(await getReceiptByToken(testDb(), "../etc")).toBeNull();
    expect(await getReceiptByToken(testDb(), sessionId)).toBeNull();
  });
});

describe("the setting", () => {
  it("is off by default; turning it on and off is audited once per change", async () => {
    const biz = await paymentsBusiness();
    const [row] = await testDb().select().from(businesses).where(eq(businesses.id, biz.business.id));
    expect(row!.sendReceipts).toBe(false);
    const actor = { type: "user" as const, userId: "usr_test", email: "olga@example.com", ip: null, userAgent: null };
    await withAuditActor(actor, async () => {
      await setSendReceipts(testDb(), biz.business.id, true);
      await setSendReceipts(testDb(), biz.business.id, true);
      await setSendReceipts(testDb(), biz.business.id, false);
    });
    const events = await testDb()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.businessId, biz.business.id), eq(auditEvents.action, "business.receipts_switch")))
      .orderBy(auditEvents.createdAt);
    expect(events.map((e) => e.changes)).toEqual([
      { send_receipts: { from: false, to: true } },
      { send_receipts: { from: true, to: false } },
    ]);
  });
});
