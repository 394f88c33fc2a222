"use client";

import dynamic from "next/dynamic";
import { useState } from "react";
import { amountText, type AmountTexts } from "@/lib/checkout/amount-texts";
import { canPay } from "@/lib/checkout/checkout-state";
import type { CheckoutMessages } from "@/lib/checkout/checkout-messages";
import type { CheckoutPageData, CheckoutStatus } from "@/lib/checkout/get-checkout";
import { submitPayment } from "@/lib/checkout/pay-client";
import { recurringPriceText } from "@/lib/checkout/recurring-price";
import { interpolate } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { CountryOption } from "./country-options";
import { OrderSummary } from "./order-summary";
import { PaymentForm } from "./payment-form";
import { Result, ResultPanel } from "./result-panel";
import { isWallet } from "./use-checkout-form";
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
  const view = useCheckoutView(data);
  const { status, method, alreadyPaid, setRetrying, onNotPayable } = view;
  const money = (cents: number) => amountText(amounts, cents, data.currency, locale);
  const payable = canPay(status.state);
  const total = payable ? (method?.total ?? data.amount) : status.amount;
  const fee = payable ? (method?.customerFee ?? 0) : status.amount - data.amount;
  // A recurring plan renews at the chosen method's price (the paid one's, once paid), without
  // the one-time fees of the first payment.
  const plan = data.subscription;
  const renewalMethod = payable ? method : (data.methods.find((m) => m.provider === "stripe" && m.method === status.payment_method) ?? method);
  const renewal = renewalMethod?.renewalAmount ?? data.amount;
  const planPrice = plan ? recurringPriceText(money(renewal), plan, messages) : null;
  const showForm = (payable || (view.retrying && status.state === "processing")) && !alreadyPaid;

  const form = (
    <PaymentForm
      data={data}
      money={money}
      messages={messages}
      countries={countries}
      methodId={view.methodId}
      onMethodChange={view.setMethodId}
      lastFailure={status.state === "failed" ? { code: status.failure_code } : null}
      onStatus={view.setStatus}
      onNotPayable={onNotPayable}
    />
  );
  const panel = showForm ? (
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
    <ResultPanel state={alreadyPaid ? "already_paid" : status.state} merchant={data.merchant} amount={money(status.amount)} returnUrl={data.returnUrl} planPrice={planPrice} messages={messages} focus={view.focusResult}>
      {status.state === "processing" ? <ProcessingActions data={data} status={status} messages={messages} onNotPayable={onNotPayable} onAnother={() => setRetrying(true)} /> : null}
    </ResultPanel>
  );
  return (
    <>
      <OrderSummary data={data} money={money} messages={messages} total={total} fee={fee} planPrice={planPrice} renewal={plan && payable ? { plan, amount: renewal } : null} />
      {panel}
    </>
  );
}

/** The page's state: the session's (polled), the chosen method, and a retry or a late "already paid". */
function useCheckoutView(data: CheckoutPageData) {
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
  const formMethods = data.methods.filter((m) => !isWallet(m));
  const [methodId, setMethodId] = useState(formMethods[0]?.id ?? data.methods[0]?.id ?? "");
  const method = data.methods.find((m) => m.id === methodId) ?? data.methods[0];
  const onNotPayable = async () => {
    const fresh = await refetch();
    if (fresh.state === "succeeded") setAlreadyPaid(true);
    setRetrying(false);
  };
  const focusResult = alreadyPaid || status.state !== openedWith;
  return { status, setStatus, alreadyPaid, retrying, setRetrying, methodId, setMethodId, method, onNotPayable, focusResult };
}

type ProcessingProps = {
  data: CheckoutPageData;
  status: CheckoutStatus;
  messages: CheckoutMessages;
  onNotPayable: () => Promise<void>;
  onAnother: () => void;
};

/** A payment left in progress: back to the redirect method's page, or pay another way. */
function ProcessingActions({ data, status, messages, onNotPayable, onAnother }: ProcessingProps) {
  const redirectMethod = data.methods.find((m) => m.redirect && m.method === status.payment_method);
  const resume = async (id: string) => {
    const outcome = await submitPayment(data.sessionId, { paymentMethodId: id });
    if (outcome.kind === "result" && outcome.response.next?.type === "redirect") window.location.assign(outcome.response.next.url);
    else await onNotPayable();
  };
  return (
    <div className="actions">
      {redirectMethod ? (
        <button type="button" className="button primary" onClick={() => void resume(redirectMethod.id)}>
          {interpolate(messages.states.processing.resume, {
            method: messages.methods[redirectMethod.method as keyof CheckoutMessages["methods"]] ?? redirectMethod.name,
          })}
        </button>
      ) : null}
      {data.methods.length ? (
        <button type="button" className="button secondary" onClick={onAnother}>
          {messages.states.processing.another}
        </button>
      ) : null}
    </div>
  );
}
