"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { amountText, type AmountTexts } from "@/lib/checkout/amount-texts";
import { canPay, type CheckoutState } from "@/lib/checkout/checkout-state";
import type { CheckoutPageData, CheckoutStatus } from "@/lib/checkout/get-checkout";
import { submitPayment } from "@/lib/checkout/pay-client";
import { intervalWords, recurringPriceText } from "@/lib/checkout/recurring-price";
import { interpolate } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { CheckoutMessages } from "@/lib/checkout/checkout-messages";
import type { CountryOption } from "./country-options";
import { PaymentForm } from "./payment-form";
import { useCheckoutStatus } from "./use-checkout-status";

type Props = {
  data: CheckoutPageData;
  /** The amounts the page shows, formatted by the server (no Intl.NumberFormat while hydrating). */
  amounts: AmountTexts;
  locale: Locale;
  messages: CheckoutMessages;
  countries: CountryOption[];
};

// Only live businesses' pages load this chunk (and, through it, Stripe.js).
const LiveStripeProvider = dynamic(() => import("./live-stripe"), { ssr: false });

/**
 * The interactive part of the hosted page: the order summary (its total follows the chosen method
 * and the session's state), the payment form and the result. Server-rendered like the rest, then
 * hydrated; what only paying needs (validation, card brand rules, Stripe.js) loads on demand.
 */
export function CheckoutApp({ data, amounts, locale, messages, countries }: Props) {
  const { status, setStatus, refetch } = useCheckoutStatus(data.sessionId, {
    session_id: data.sessionId,
    state: data.state,
    status: null,
    amount: data.paidAmount ?? data.amount,
    currency: data.currency,
    payment_method: data.paidMethod,
    failure_code: data.failureCode,
  } satisfies CheckoutStatus);
  // Set when a payment attempt learns the session was paid meanwhile (another tab, another device).
  const [alreadyPaid, setAlreadyPaid] = useState(false);
  // "Pay another way" from a payment left in progress (a redirect or a 3-D Secure challenge the
  // customer walked away from): the form again; paySession decides whether it may replace it.
  const [retrying, setRetrying] = useState(false);
  // A result reached on this page (not the one it opened with) takes the focus.
  const [openedWith] = useState(status.state);
  const focusResult = alreadyPaid || status.state !== openedWith;
  const formMethods = data.methods.filter((m) => !isWallet(m));
  const [methodId, setMethodId] = useState(formMethods[0]?.id ?? data.methods[0]?.id ?? "");
  const method = data.methods.find((m) => m.id === methodId) ?? data.methods[0];

  const money = (cents: number) => amountText(amounts, cents, data.currency, locale);
  const total = canPay(status.state) ? (method?.total ?? data.amount) : status.amount;
  const fee = canPay(status.state) ? (method?.customerFee ?? 0) : status.amount - data.amount;
  // A recurring plan renews at the chosen method's price (the paid one's, once paid), without
  // the one-time fees of the first payment.
  const plan = data.subscription;
  const renewalMethod = canPay(status.state)
    ? method
    : (data.methods.find((m) => m.provider === "stripe" && m.method === status.payment_method) ?? method);
  const renewal = renewalMethod?.renewalAmount ?? data.amount;
  const planPrice = plan ? recurringPriceText(money(renewal), plan, messages) : null;

  const onStatus = setStatus;
  const onNotPayable = async () => {
    const fresh = await refetch();
    if (fresh.state === "succeeded") setAlreadyPaid(true);
    setRetrying(false);
  };
  const redirectMethod = data.methods.find((m) => m.redirect && m.method === status.payment_method);
  const resume = redirectMethod
    ? async () => {
        const outcome = await submitPayment(data.sessionId, { paymentMethodId: redirectMethod.id });
        if (outcome.kind === "result" && outcome.response.next?.type === "redirect") window.location.assign(outcome.response.next.url);
        else await onNotPayable();
      }
    : null;
  const showForm = (canPay(status.state) || (retrying && status.state === "processing")) && !alreadyPaid;

  const form = (
    <PaymentForm
      data={data}
      money={money}
      messages={messages}
      countries={countries}
      methodId={methodId}
      onMethodChange={setMethodId}
      lastFailure={status.state === "failed" ? { code: status.failure_code } : null}
      onStatus={onStatus}
      onNotPayable={onNotPayable}
    />
  );

  return (
    <>
      <section className="card summary" aria-labelledby="checkout-title">
        <h1 id="checkout-title" className="summary-title">
          <span className="merchant" data-testid="merchant">
            {data.merchant}
          </span>
          <span className="total" data-testid="total">
            {money(total)}
          </span>
        </h1>
        {plan ? (
          <p className="recurring" data-testid="recurring">
            <span className="badge">{messages.summary.subscription}</span>{" "}
            <span data-testid="recurring-price">{planPrice}</span>
          </p>
        ) : null}
        {data.description ? <p className="description">{data.description}</p> : null}
        <h2 className="visually-hidden">{messages.summary.items}</h2>
        <ul className="items">
          {data.items.map((item, index) => (
            <li key={index}>
              <span className="item-name">
                {item.name}
                {item.quantity > 1 || data.items.length > 1 ? (
                  <span className="qty">{interpolate(messages.summary.quantity, { quantity: item.quantity })}</span>
                ) : null}
              </span>
              <span className="amount">{money(item.price * item.quantity)}</span>
            </li>
          ))}
          {fee > 0 ? (
            <li className="fee-line">
              <span>{messages.summary.fee}</span>
              <span className="amount">{money(fee)}</span>
            </li>
          ) : null}
          <li className="total-line">
            <span>{plan && canPay(status.state) ? messages.summary.dueToday : messages.summary.total}</span>
            <span className="amount">{money(total)}</span>
          </li>
        </ul>
        {plan && canPay(status.state) ? (
          <p className="hint recurring-note" data-testid="recurring-note">
            {interpolate(messages.summary.renews, {
              today: money(total),
              interval: intervalWords(plan, messages),
              amount: money(renewal),
            })}
          </p>
        ) : null}
      </section>

      {showForm ? (
        data.methods.length === 0 ? (
          <Result title={messages.states.noMethods.title} body={interpolate(messages.states.noMethods.body, { merchant: data.merchant })} tone="neutral" state="no_methods" />
        ) : data.mode === "live" && data.stripePublishableKey && data.methods.some((m) => m.provider === "stripe") ? (
          <LiveStripeProvider publishableKey={data.stripePublishableKey} amount={total} currency={data.currency} locale={locale}>
            {form}
          </LiveStripeProvider>
        ) : (
          form
        )
      ) : (
        <ResultPanel
          state={alreadyPaid ? "already_paid" : status.state}
          merchant={data.merchant}
          amount={money(status.amount)}
          returnUrl={data.returnUrl}
          planPrice={planPrice}
          messages={messages}
          focus={focusResult}
        >
          {status.state === "processing" ? (
            <div className="actions">
              {resume && redirectMethod ? (
                <button type="button" className="button primary" onClick={() => void resume()}>
                  {interpolate(messages.states.processing.resume, {
                    method: messages.methods[redirectMethod.method as keyof CheckoutMessages["methods"]] ?? redirectMethod.name,
                  })}
                </button>
              ) : null}
              {data.methods.length ? (
                <button type="button" className="button secondary" onClick={() => setRetrying(true)}>
                  {messages.states.processing.another}
                </button>
              ) : null}
            </div>
          ) : null}
        </ResultPanel>
      )}
    </>
  );
}

export function isWallet(method: { provider: string; method: string }): boolean {
  return method.provider === "stripe" && (method.method === "apple_pay" || method.method === "google_pay");
}

function ResultPanel({
  state,
  merchant,
  amount,
  returnUrl,
  planPrice,
  messages,
  focus,
  children,
}: {
  children?: ReactNode;
  state: CheckoutState | "already_paid";
  merchant: string;
  amount: string;
  returnUrl: string | null;
  /** A recurring plan's price per period ("$25.00 every month"); null for a one-time payment. */
  planPrice: string | null;
  messages: CheckoutMessages;
  focus: boolean;
}) {
  const s = messages.states;
  const values = { merchant, amount };
  const common = { state, focus };
  switch (state) {
    case "succeeded":
    case "already_paid": {
      const text = state === "succeeded" ? s.succeeded : s.alreadyPaid;
      return (
        <Result title={text.title} body={interpolate(text.body, values)} tone="good" {...common}>
          {planPrice && state === "succeeded" ? (
            <p data-testid="subscription-active">{interpolate(s.succeeded.subscription, { price: planPrice })}</p>
          ) : null}
          {returnUrl ? (
            <a className="button secondary" href={returnUrl} rel="noopener">
              {interpolate(s.succeeded.back, values)}
            </a>
          ) : null}
        </Result>
      );
    }
    case "processing":
      return (
        <Result title={s.processing.title} body={interpolate(s.processing.body, values)} tone="neutral" {...common} busy>
          {children}
        </Result>
      );
    case "pending_review":
      return <Result title={s.pendingReview.title} body={interpolate(s.pendingReview.body, values)} tone="neutral" {...common} />;
    case "declined":
      return <Result title={s.declined.title} body={interpolate(s.declined.body, values)} tone="bad" {...common} />;
    case "expired":
      return <Result title={s.expired.title} body={interpolate(s.expired.body, values)} tone="bad" {...common} />;
    default:
      return null;
  }
}

function Result(props: {
  title: string;
  body: string;
  tone: "good" | "bad" | "neutral";
  state: string;
  focus?: boolean;
  busy?: boolean;
  children?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { focus } = props;
  useEffect(() => {
    // Screen readers announce the focused heading; keyboard users continue from there.
    if (focus) heading.current?.focus();
  }, [focus]);
  return (
    <section className={`card result ${props.tone}`} role="status" aria-live="polite" data-state={props.state} data-testid="result">
      <h2 ref={heading} tabIndex={-1} className="status-title">
        {props.busy ? <span className="spinner" aria-hidden="true" /> : null}
        {props.title}
      </h2>
      <p>{props.body}</p>
      {props.children}
    </section>
  );
}
