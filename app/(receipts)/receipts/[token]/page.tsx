import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/lib/db";
import { messagesFor } from "@/lib/i18n";
import { getReceiptByToken } from "@/lib/receipts/get-receipt";
import { methodText, receiptDate, receiptLines } from "@/lib/receipts/receipt-text";
import { PrintButton } from "./print-button";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ token: string }> }): Promise<Metadata> {
  const receipt = await getReceiptByToken(await getDb(), (await params).token);
  const title = receipt ? `${messagesFor(receipt.locale).receipt.metaTitle} · ${receipt.content.businessName}` : "Receipt";
  // The URL is a credential: no indexing (pageSecurityHeaders keep the referrer to our origin).
  return { title, robots: { index: false, follow: false } };
}

// GET {ORIGIN}/receipts/{token}: the payer's receipt, printable (decision 0051).
export default async function ReceiptPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const receipt = await getReceiptByToken(await getDb(), token);
  if (!receipt) notFound();
  const { content, locale, currency, kind } = receipt;
  const messages = messagesFor(locale);
  const m = messages.receipt;
  const lines = receiptLines(content, kind, currency, locale);
  const method = methodText(content.method, locale);
  return (
    <main className="page" lang={locale}>
      {receipt.logoUrl ? (
        <p className="brand">
          {/* eslint-disable-next-line @next/next/no-img-element -- a small same-origin image; next/image would add a loader route */}
          <img src={receipt.logoUrl} alt="" data-testid="receipt-logo" />
        </p>
      ) : null}
      {receipt.sandbox && (
        <p className="test-banner" data-testid="test-mode">
          <strong>{messages.testMode.banner}</strong>
        </p>
      )}
      <section className="card" aria-labelledby="receipt-title">
        <h1 id="receipt-title" className="summary-title">
          <span className="merchant" data-testid="receipt-merchant">
            {content.businessName}
          </span>
          <span>{kind === "refund" ? m.refundHeading : m.heading}</span>
        </h1>
        {content.description ? <p className="description">{content.description}</p> : null}
        <ul className="items" data-testid="receipt-lines">
          {lines.map((line, index) => (
            <li key={index} className={index === lines.length - 1 && kind !== "refund" ? "total-line" : undefined}>
              <span className="item-name">{line.label}</span>
              <span className="amount">{line.amount}</span>
            </li>
          ))}
        </ul>
        <dl className="receipt-meta">
          <dt>{m.date}</dt>
          <dd data-testid="receipt-date">{receiptDate(content.paidAt, locale)}</dd>
          {method ? (
            <>
              <dt>{m.method}</dt>
              <dd data-testid="receipt-method">{method}</dd>
            </>
          ) : null}
          <dt>{m.order}</dt>
          <dd>{content.orderId}</dd>
        </dl>
        <p className="receipt-actions">
          <PrintButton label={m.print} />
        </p>
      </section>
    </main>
  );
}
