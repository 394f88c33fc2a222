import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { receipts, type Business, type Payment, type Receipt, type ReceiptContent, type Session } from "@/db/schema";
import { origin } from "@/lib/env";
import { newId } from "@/lib/ids";
import { enqueueMail } from "@/lib/mail/enqueue-mail";
import { parseDbTime } from "@/lib/time";
import { receiptLocale, receiptMail } from "./receipt-text";

export type ReceiptSource = {
  business: Business;
  session: Session;
  payment: Payment;
  /** A refund receipt: the refund (its amount and when it succeeded). */
  refund?: { id: string; amount: number; completedAt?: string | null };
  /** A renewal: its cycle (2, 3, …). */
  cycle?: number;
  /** The language when the payment row has none (a renewal: the signup payment's). */
  locale?: string | null;
  /** The address when the payment has none (a renewal: the subscription's customer e-mail). */
  email?: string | null;
};

/** The hosted page's capability: 32 random bytes, URL-safe; unrelated to every id. */
export function newReceiptToken(): string {
  return randomBytes(32).toString("base64url");
}

export function receiptUrl(token: string): string {
  return `${origin()}/receipts/${token}`;
}

function contentOf(source: ReceiptSource): ReceiptContent {
  const { business, session, payment, refund } = source;
  const card = payment.paymentDetails?.card;
  const method = payment.paymentDetails
    ? { type: payment.paymentDetails.type, ...(card ? { brand: card.brand, last4: card.last4 } : {}) }
    : payment.paymentMethod
      ? { type: payment.paymentMethod }
      : null;
  const when = refund ? (refund.completedAt ?? null) : payment.completedAt;
  return {
    businessName: business.name,
    items: session.items,
    total: payment.amount,
    // The fee the payer paid on top (the business passes fees on, or a screening fee): its own line.
    fee: Math.max(0, payment.amount - session.amount),
    ...(refund ? { refunded: refund.amount } : {}),
    method,
    orderId: session.orderId,
    description: session.description,
    ...(source.cycle ? { cycle: source.cycle } : {}),
    paidAt: (when ? parseDbTime(when) : new Date()).toISOString(),
  };
}

async function paymentReceipt(tx: Db, paymentId: string) {
  const [row] = await tx
    .select({ toAddress: receipts.toAddress, locale: receipts.locale })
    .from(receipts)
    .where(and(eq(receipts.paymentId, paymentId), eq(receipts.kind, "payment")));
  return row;
}

/**
 * Issues the payer's receipt, in `tx` (the transaction that records the payment, renewal or
 * refund): the receipt row and its e-mail with the send_mail job. Nothing when the business does
 * not send receipts or no payer e-mail is known. Once per payment and per refund (`sourceKey` is
 * unique): a replayed event finds the receipt and sends nothing. Returns the new receipt, or null.
 */
export async function issueReceipt(tx: Db, source: ReceiptSource): Promise<Receipt | null> {
  const { business, session, payment, refund } = source;
  if (!business.sendReceipts) return null;
  // A refund goes where the payment's receipt went, in its language: a renewal's payment row
  // has neither the payer's address nor their language.
  const original = refund ? await paymentReceipt(tx, payment.id) : undefined;
  const to = payment.customerDetails?.email || source.email || session.customerEmail || original?.toAddress;
  if (!to) return null;
  const kind = refund ? "refund" : "payment";
  const locale = receiptLocale(payment.locale ?? source.locale ?? original?.locale);
  const content = contentOf(source);
  const token = newReceiptToken();
  const [receipt] = await tx
    .insert(receipts)
    .values({
      id: newId("receipt"),
      businessId: business.id,
      sessionId: session.id,
      paymentId: payment.id,
      kind,
      sourceKey: refund ? `refund:${refund.id}` : `payment:${payment.id}`,
      token,
      locale,
      toAddress: to,
      currency: session.currency,
      content,
    })
    .onConflictDoNothing({ target: receipts.sourceKey })
    .returning();
  if (!receipt) return null;
  const parts = receiptMail({ kind, content, currency: session.currency, locale, url: receiptUrl(token) });
  const mail = await enqueueMail(tx, { businessId: business.id, kind: "receipt", to, parts });
  const [sent] = await tx.update(receipts).set({ mailMessageId: mail.id }).where(eq(receipts.id, receipt.id)).returning();
  return sent!;
}
