import type { CheckoutMessages } from "@/lib/checkout/checkout-messages";
import type { CheckoutPageData } from "@/lib/checkout/get-checkout";
import { intervalWords, type RecurringPlan } from "@/lib/checkout/recurring-price";
import { interpolate } from "@/lib/i18n/format";

type Props = {
  data: CheckoutPageData;
  money: (cents: number) => string;
  messages: CheckoutMessages;
  /** What the customer pays now (the chosen method's total while payable, else what was paid). */
  total: number;
  fee: number;
  /** A recurring plan's price per period, written out; null for a one-time payment. */
  planPrice: string | null;
  /** The plan's renewal amount, shown under the items while the session is payable. */
  renewal: { plan: RecurringPlan; amount: number } | null;
};

/** The order: merchant, total, items, the customer's fee, and a plan's terms. */
export function OrderSummary({ data, money, messages, total, fee, planPrice, renewal }: Props) {
  const text = messages.summary;
  return (
    <section className="card summary" aria-labelledby="checkout-title">
      <h1 id="checkout-title" className="summary-title">
        <span className="merchant" data-testid="merchant">
          {data.merchant}
        </span>
        <span className="total" data-testid="total">
          {money(total)}
        </span>
      </h1>
      {planPrice ? (
        <p className="recurring" data-testid="recurring">
          <span className="badge">{text.subscription}</span> <span data-testid="recurring-price">{planPrice}</span>
        </p>
      ) : null}
      {data.description ? <p className="description">{data.description}</p> : null}
      <h2 className="visually-hidden">{text.items}</h2>
      <ul className="items">
        {data.items.map((item, index) => (
          <li key={index}>
            <span className="item-name">
              {item.name}
              {item.quantity > 1 || data.items.length > 1 ? <span className="qty">{interpolate(text.quantity, { quantity: item.quantity })}</span> : null}
            </span>
            <span className="amount">{money(item.price * item.quantity)}</span>
          </li>
        ))}
        {fee > 0 ? (
          <li className="fee-line">
            <span>{text.fee}</span>
            <span className="amount">{money(fee)}</span>
          </li>
        ) : null}
        <li className="total-line">
          <span>{renewal ? text.dueToday : text.total}</span>
          <span className="amount">{money(total)}</span>
        </li>
      </ul>
      {renewal ? (
        <p className="hint recurring-note" data-testid="recurring-note">
          {interpolate(text.renews, { today: money(total), interval: intervalWords(renewal.plan, messages), amount: money(renewal.amount) })}
        </p>
      ) : null}
    </section>
  );
}
