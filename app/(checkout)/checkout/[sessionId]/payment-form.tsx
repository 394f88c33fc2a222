"use client";

import { useContext, useSyncExternalStore } from "react";
import { useWatch } from "react-hook-form";
import type { CheckoutMessages } from "@/lib/checkout/checkout-messages";
import type { CheckoutMethod, CheckoutPageData, CheckoutStatus } from "@/lib/checkout/get-checkout";
import { interpolate } from "@/lib/i18n/format";
import { BillingFields } from "./billing-fields";
import type { CountryOption } from "./country-options";
import { LiveStripeContext, type LiveStripe } from "./live-stripe-context";
import { MethodChoice } from "./method-choice";
import { paymentHandlers } from "./payment-handlers";
import { SandboxCardFields } from "./sandbox-card-fields";
import { isCard, useCheckoutForm, useMethodsOnOffer } from "./use-checkout-form";
import { usePay } from "./use-pay";
import { WalletButtons } from "./wallet-buttons";

type Props = {
  data: CheckoutPageData;
  /** Cents as the page writes them (the server's texts: see lib/checkout/amount-texts.ts). */
  money: (cents: number) => string;
  messages: CheckoutMessages;
  countries: CountryOption[];
  methodId: string;
  onMethodChange: (id: string) => void;
  /** The last attempt failed (the page opened on it, e.g. back from 3-D Secure). */
  lastFailure: { code: string | null } | null;
  onStatus: (status: CheckoutStatus) => void;
  onNotPayable: () => Promise<void>;
};

const noSubscription = () => () => {};

/**
 * The payment form: wallets, the method choice, the chosen method's fields, billing details and
 * the pay button. Its parts are files of their own; the rules (zod, card brands) and Stripe.js load
 * only when needed (decision 0085).
 */
export function PaymentForm({ data, money, messages, countries, methodId, onMethodChange, lastFailure, onStatus, onNotPayable }: Props) {
  const live = useContext(LiveStripeContext);
  // Until React has hydrated, a click would submit the form natively (typed card data in a URL),
  // and the wallet, method and test-card buttons would do nothing: all are disabled until then.
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const sandbox = data.mode === "sandbox";
  const methodName = (m: CheckoutMethod) => messages.methods[m.method as keyof CheckoutMessages["methods"]] ?? m.name;
  const { alert, setAlert, showAlert, busy, setBusy, alertRef, pay } = usePay({ sessionId: data.sessionId, messages, lastFailure, methodName, onStatus, onNotPayable });
  const form = useCheckoutForm(data, methodId, messages);
  const country = useWatch({ control: form.control, name: "country" });
  const { wallets, formMethods, current } = useMethodsOnOffer(data.methods, country, methodId, onMethodChange, form.setValue);
  const handlers = paymentHandlers({ form, messages, sandbox, live, current, wallets, pay, setAlert, showAlert, setBusy });
  const disabled = busy !== null || !hydrated;

  return (
    <form className="card pay-form" method="post" noValidate onSubmit={(event) => void form.handleSubmit(handlers.onValid, handlers.onInvalid)(event)} aria-labelledby="pay-title" data-testid="pay-form">
      <h2 id="pay-title" className="section-title">
        {messages.methods.legend}
      </h2>
      <div ref={alertRef} tabIndex={-1} className="alert-region" aria-live="assertive" aria-atomic="true" data-testid="alert">
        {alert ? (
          <p className="alert" role="alert">
            {alert}
          </p>
        ) : null}
      </div>
      {wallets.length ? (
        <WalletButtons
          wallets={wallets}
          sandbox={sandbox}
          LiveExpress={live?.ExpressButtons}
          messages={messages}
          disabled={disabled}
          divider={formMethods.length > 0}
          onSimulated={(w) => void handlers.payWithSimulatedWallet(w)}
          onLive={handlers.payWithLiveWallet}
        />
      ) : null}
      {formMethods.length > 1 ? (
        <MethodChoice methods={formMethods} currentId={current?.id} register={form.register} messages={messages} methodName={methodName} disabled={disabled} onChange={onMethodChange} />
      ) : null}
      <MethodFields method={current} sandbox={sandbox} live={live} form={form} messages={messages} disabled={disabled} methodName={methodName} />
      <BillingFields register={form.register} errors={form.formState.errors} messages={messages} countries={countries} />
      {current ? (
        <button type="submit" className="button primary pay" disabled={disabled} data-testid="pay-button">
          {interpolate(messages.pay.button, { amount: money(current.total) })}
        </button>
      ) : null}
      <p className="busy" role="status" aria-live="polite">
        {busy ? (
          <>
            <span className="spinner" aria-hidden="true" /> {busy.text}
          </>
        ) : null}
      </p>
    </form>
  );
}

type MethodFieldsProps = {
  method: CheckoutMethod | undefined;
  sandbox: boolean;
  live: LiveStripe | null;
  form: ReturnType<typeof useCheckoutForm>;
  messages: CheckoutMessages;
  disabled: boolean;
  methodName: (method: CheckoutMethod) => string;
};

/** The chosen method's own part: the card's fields (ours in a sandbox, Stripe's when live), or a redirect's note. */
function MethodFields({ method, sandbox, live, form, messages, disabled, methodName }: MethodFieldsProps) {
  if (method && isCard(method)) {
    if (sandbox) return <SandboxCardFields form={form} messages={messages} disabled={disabled} />;
    const LiveCard = live?.CardElement;
    return LiveCard ? (
      <fieldset className="group">
        <legend>{messages.card.legend}</legend>
        <p className="hint">{messages.card.live}</p>
        <LiveCard />
      </fieldset>
    ) : null;
  }
  return method?.redirect ? <p className="hint">{interpolate(messages.methods.redirectNote, { method: methodName(method) })}</p> : null;
}
