import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/lib/db";
import { formatMoney } from "@/lib/money";
import { getCheckoutSession } from "@/lib/sessions/get-checkout-session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Checkout · Kassa", robots: { index: false } };

// GET {checkout_url}/{session_id}: the hosted payment page (summary only until the checkout issue).
export default async function CheckoutPage({ params }: { params: Promise<{ sessionId: string }> }) {
  const { sessionId } = await params;
  const view = await getCheckoutSession(await getDb(), sessionId);
  if (view.state === "not_found") notFound();

  return (
    <main className="page">
      <section className="card" aria-labelledby="checkout-title">
        <p className="merchant" data-testid="merchant">
          {view.merchant}
          {view.mode === "sandbox" ? " · test mode" : ""}
        </p>
        <h1 id="checkout-title" className="total" data-testid="total">
          {formatMoney(view.amount, view.currency)}
        </h1>
        {view.description ? <p>{view.description}</p> : null}
        <ul className="items" aria-label="Items">
          {view.items.map((item, index) => (
            <li key={index}>
              <span>
                {item.name} <span className="qty">× {item.quantity}</span>
              </span>
              <span className="amount">{formatMoney(item.price * item.quantity, view.currency)}</span>
            </li>
          ))}
        </ul>
        {view.state === "expired" ? (
          <div role="status">
            <h2 className="status-title">This payment link has expired</h2>
            <p className="notice">Sessions expire 24 hours after they are created. Ask the merchant for a new link.</p>
          </div>
        ) : view.state === "paid" ? (
          <div role="status">
            <h2 className="status-title">Already paid</h2>
            <p className="notice">This order has been paid. Nothing more to do.</p>
          </div>
        ) : (
          <p className="notice" data-testid="payment-pending">
            Payment form coming soon: this page shows the order summary.
          </p>
        )}
      </section>
    </main>
  );
}
