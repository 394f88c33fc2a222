import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BrandingHeader } from "@/app/(checkout)/checkout/branding";
import { requestLocale } from "@/app/(checkout)/checkout/request-locale";
import { getBranding } from "@/lib/branding/get-branding";
import { getDb } from "@/lib/db";
import { interpolate, messagesFor } from "@/lib/i18n";
import {
  cardBrandName,
  formatDay,
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
  const end = subscription.currentPeriodEnd ? formatDay(subscription.currentPeriodEnd, locale) : null;
  const card = subscription.card;

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
        <dl className="details">
          {subscription.itemNames.length > 0 && (
            <div>
              <dt>{m.plan}</dt>
              <dd data-testid="plan">{subscription.itemNames.join(", ")}</dd>
            </div>
          )}
          <div>
            <dt>{m.status}</dt>
            <dd>
              <span className={`badge ${status}`} data-testid="status">
                {m.statuses[status]}
              </span>
            </dd>
          </div>
          {status === "active" && end && (
            <div>
              <dt>{m.nextCharge}</dt>
              <dd data-testid="next-charge">{end}</dd>
            </div>
          )}
          {status === "canceling" && end && (
            <div>
              <dt>{m.endsOn}</dt>
              <dd data-testid="ends-on">{end}</dd>
            </div>
          )}
          {status === "canceled" && subscription.canceledAt && (
            <div>
              <dt>{m.endedOn}</dt>
              <dd>{formatDay(subscription.canceledAt, locale)}</dd>
            </div>
          )}
          {card && (
            <div>
              <dt>{m.card}</dt>
              <dd data-testid="card">
                {interpolate(m.cardEnding, { brand: cardBrandName(card.brand), last4: card.last4 })}
              </dd>
            </div>
          )}
        </dl>
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
