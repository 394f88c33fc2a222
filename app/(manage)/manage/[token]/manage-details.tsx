import { interpolate, type Locale, type Messages } from "@/lib/i18n";
import { cardBrandName, formatDay, type manageStatus } from "@/lib/manage/manage-view";
import type { ManagedSubscription } from "@/lib/subscriptions/get-managed-subscription";

/** The plan, its status, the next charge (or the end) and the card, in the customer's language. */
export function ManageDetails({
  subscription,
  status,
  locale,
  messages: m,
}: {
  subscription: ManagedSubscription;
  status: ReturnType<typeof manageStatus>;
  locale: Locale;
  messages: Messages["manage"];
}) {
  const end = subscription.currentPeriodEnd ? formatDay(subscription.currentPeriodEnd, locale) : null;
  const card = subscription.card;
  return (
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
  );
}
