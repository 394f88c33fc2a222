import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { checkoutAmountTexts } from "@/lib/checkout/amount-texts";
import { checkoutMessages } from "@/lib/checkout/checkout-messages";
import { countryCodes } from "@/lib/checkout/countries";
import { canPay } from "@/lib/checkout/checkout-state";
import { getCheckoutPage } from "@/lib/checkout/get-checkout";
import { getDb } from "@/lib/db";
import { countryName, messagesFor } from "@/lib/i18n";
import { linkQuantityChoice } from "@/lib/payment-links/link-quantity-choice";
import { BrandingHeader } from "../branding";
import { requestLocale } from "../request-locale";
import { CheckoutApp } from "./checkout-app";
import { LinkQuantity } from "./link-quantity";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const messages = messagesFor(await requestLocale());
  return { title: `${messages.meta.title} · Kassa`, robots: { index: false, follow: false } };
}

// GET {checkout_url}/{session_id}: the hosted payment page.
export default async function CheckoutPage({ params }: { params: Promise<{ sessionId: string }> }) {
  const { sessionId } = await params;
  const locale = await requestLocale();
  const db = await getDb();
  const data = await getCheckoutPage(db, sessionId);
  if (!data) notFound();
  // A payment link's session whose payer may still choose the quantity (and pay).
  const quantity = canPay(data.state) ? await linkQuantityChoice(db, sessionId) : null;
  const messages = messagesFor(locale);
  const collator = new Intl.Collator(locale);
  const countries = countryCodes
    .map((code) => ({ code, name: countryName(code, locale) }))
    .sort((a, b) => collator.compare(a.name, b.name));

  return (
    <main className="page">
      <BrandingHeader branding={data.branding} />
      {data.mode === "sandbox" ? (
        <p className="test-banner" data-testid="test-mode">
          <strong>{messages.testMode.banner}</strong> <span>{messages.testMode.detail}</span>
        </p>
      ) : null}
      {quantity ? <LinkQuantity choice={quantity} messages={messages} /> : null}
      <CheckoutApp data={data} amounts={checkoutAmountTexts(data, locale)} locale={locale} messages={checkoutMessages(messages)} countries={countries} />
    </main>
  );
}
