import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BrandingHeader } from "@/app/(checkout)/checkout/branding";
import { requestLocale } from "@/app/(checkout)/checkout/request-locale";
import { getBranding } from "@/lib/branding/get-branding";
import { getDb } from "@/lib/db";
import { interpolate, messagesFor } from "@/lib/i18n";
import {
  manageAction,
  manageResultText,
  manageSentence,
  manageState,
  manageStatus,
  pricePerInterval,
  visibleResult,
} from "@/lib/manage/manage-view";
import { getManagedSubscription } from "@/lib/subscriptions/get-managed-subscription";
import { manageResultOf } from "./manage-result";
import { ManageActions } from "./manage-actions";
import { ManageDetails } from "./manage-details";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const messages = messagesFor(await requestLocale());
  // The URL is a credential: no indexing, no referrer beyond our origin (pageSecurityHeaders).
  return { title: `${messages.manage.metaTitle} · Kassa`, robots: { index: false, follow: false } };
}

// GET {ORIGIN}/manage/{token}: the customer's self-service page for one subscription.
export default async function ManagePage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await params;
  const locale = await requestLocale();
  const subscription = await getManagedSubscription(await getDb(), token);
  if (!subscription) notFound();
  const messages = messagesFor(locale);
  const m = messages.manage;
  const status = manageStatus(subscription);
  const state = manageState(subscription);
  const result = visibleResult(manageResultOf((await searchParams).result), state);

  return (
    <main className="page">
      <BrandingHeader branding={await getBranding(await getDb(), subscription.businessId)} />
      {subscription.mode === "sandbox" && (
        <p className="test-banner" data-testid="test-mode">
          <strong>{messages.testMode.banner}</strong>
        </p>
      )}
      <section className="card" aria-labelledby="manage-title">
        <h1 id="manage-title" className="summary-title">
          <span className="merchant">{interpolate(m.withMerchant, { merchant: subscription.merchant })}</span>
          <span className="manage-heading">{m.title}</span>
        </h1>
        <p className="total" data-testid="price">
          {pricePerInterval(subscription, locale, messages)}
        </p>
        <ManageDetails subscription={subscription} status={status} locale={locale} messages={m} />
      </section>
      <ManageActions
        token={token}
        action={manageAction(state)}
        sentence={manageSentence(subscription, locale, messages)}
        result={
          result && {
            text: manageResultText(result, subscription, locale, messages),
            bad: result === "failed" || result === "not_allowed" || result === "changed",
          }
        }
        ended={state === "ended"}
        messages={m}
      />
    </main>
  );
}
