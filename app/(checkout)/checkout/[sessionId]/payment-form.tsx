"use client";

import { useContext, useEffect, useId, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { useForm, useWatch, type FieldErrors, type Resolver } from "react-hook-form";
import { formatExpiryInput, groupCardDigits, testCards } from "@/lib/checkout/card-input";
import type * as CardBrandsModule from "@/lib/checkout/card";
import type { CheckoutFormValues } from "@/lib/checkout/checkout-form";
import type { CheckoutMethod, CheckoutPageData, CheckoutStatus } from "@/lib/checkout/get-checkout";
import { submitPayment } from "@/lib/checkout/pay-client";
import { failureMessage } from "@/lib/checkout/failure-message";
import type { PayRequest } from "@/lib/checkout/pay-request";
import { interpolate } from "@/lib/i18n/format";
import type { CheckoutMessages } from "@/lib/checkout/checkout-messages";
import { CountryOptions, type CountryOption } from "./country-options";
import { LiveStripeContext, type CustomerDetails, type WalletKind } from "./live-stripe-context";


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

type Busy = null | { text: string };

const isWallet = (m: CheckoutMethod) => m.provider === "stripe" && (m.method === "apple_pay" || m.method === "google_pay");
const isCard = (m: CheckoutMethod | undefined) => m?.provider === "stripe" && m.method === "credit";

export function PaymentForm({ data, money, messages, countries, methodId, onMethodChange, lastFailure, onStatus, onNotPayable }: Props) {
  const live = useContext(LiveStripeContext);
  // Until React has hydrated, a click would submit the form natively (typed card data in a URL),
  // and the wallet, method and test-card buttons would do nothing: all are disabled until then.
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const sandbox = data.mode === "sandbox";
  const [alert, setAlert] = useState<string | null>(lastFailure ? failureMessage(lastFailure.code, messages.errors) : null);
  const [busy, setBusy] = useState<Busy>(null);
  const alertRef = useRef<HTMLDivElement>(null);

  // The sandbox card form is ours to validate; live card details are Stripe's Payment Element's.
  // The rules (zod, card brands) load when the customer first pays, not with the page.
  const cardMethods = sandbox ? data.methods.filter(isCard).map((m) => m.id) : [];
  const resolver: Resolver<CheckoutFormValues> = async (values, context, options) => {
    const [{ checkoutFormSchema }, { zodResolver }] = await Promise.all([loadFormRules(), import("@hookform/resolvers/zod")]);
    return (zodResolver(checkoutFormSchema(messages.errors, { cardMethods })) as unknown as Resolver<CheckoutFormValues>)(
      values,
      context,
      options,
    );
  };
  const form = useForm<CheckoutFormValues>({
    // Errors appear when the customer tries to pay (not on blur, which would move the pay button
    // under a pointer that is pressing it), then update as they type.
    mode: "onSubmit",
    reValidateMode: "onChange",
    resolver,
    defaultValues: {
      method: methodId,
      cardNumber: "",
      expiry: "",
      cvc: "",
      name: data.prefill.name,
      email: data.prefill.email,
      phone: data.prefill.phone,
      line1: "",
      city: "",
      postalCode: "",
      country: "",
    },
  });
  const { register, formState, setValue, getValues, trigger } = form;
  const errors = formState.errors;
  const country = useWatch({ control: form.control, name: "country" });

  // Methods limited to some countries (Pix: Brazil) are offered once the billing country fits.
  const available = (m: CheckoutMethod) => !m.countries || !country || m.countries.includes(country);
  const wallets = data.methods.filter((m) => isWallet(m) && available(m));
  const formMethods = data.methods.filter((m) => !isWallet(m) && available(m));
  const current = formMethods.find((m) => m.id === methodId) ?? formMethods[0];
  const currentId = current?.id;
  useEffect(() => {
    if (!currentId || currentId === methodId) return;
    setValue("method", currentId);
    onMethodChange(currentId);
  }, [currentId, methodId, onMethodChange, setValue]);
  const sandboxCard = sandbox && isCard(current);

  const methodName = (m: CheckoutMethod) => messages.methods[m.method as keyof CheckoutMessages["methods"]] ?? m.name;

  function showAlert(text: string) {
    setAlert(text);
    // Moving focus to the message makes sure it is heard, and puts keyboard users next to the form.
    queueMicrotask(() => alertRef.current?.focus());
  }

  async function pay(request: PayRequest, method: CheckoutMethod): Promise<boolean> {
    setAlert(null);
    setBusy({ text: messages.pay.working });
    const outcome = await submitPayment(data.sessionId, request);
    if (outcome.kind === "result") {
      const { next, ...status } = outcome.response;
      if (next?.type === "redirect") {
        setBusy({ text: interpolate(messages.pay.redirecting, { method: methodName(method) }) });
        window.location.assign(next.url);
        return true;
      }
      if (next?.type === "authenticate") {
        setBusy({ text: messages.pay.authenticating });
        window.location.assign(next.challengeUrl);
        return true;
      }
      setBusy(null);
      if (status.state === "failed") {
        showAlert(failureMessage(status.failure_code, messages.errors));
        return false;
      }
      onStatus(status);
      return true;
    }
    setBusy(null);
    switch (outcome.kind) {
      case "not_payable":
        // Paid, expired or held meanwhile: re-reading the state replaces the form with the result.
        await onNotPayable();
        showAlert(messages.errors.generic);
        return false;
      case "ip_mismatch":
        showAlert(messages.errors.ipMismatch);
        return false;
      case "method_unavailable":
        showAlert(messages.errors.methodUnavailable);
        return false;
      case "invalid":
        showAlert(interpolate(messages.errors.rejected, { fields: outcome.fields.join(", ") }));
        return false;
      case "network":
        showAlert(messages.errors.network);
        return false;
      case "unavailable":
        showAlert(messages.errors.unavailable);
        return false;
      case "outcome_unknown":
        // The card may have been charged: never "failed", nor an invitation to pay again. Re-reading
        // the state shows "processing" (polled until settled) once the database answers again.
        showAlert(messages.errors.outcomeUnknown);
        await onNotPayable().catch(() => undefined);
        return false;
      default:
        showAlert(messages.errors.generic);
        return false;
    }
  }

  const onValid = async (values: CheckoutFormValues) => {
    if (!current) return;
    const { customerDetailsOf, payRequestOf } = await loadFormRules();
    if (isCard(current) && !sandbox) {
      if (!live?.ready) return showAlert(messages.card.loadFailed);
      setBusy({ text: messages.pay.working });
      const created = await live.createPaymentMethod(customerDetailsOf(values));
      if ("error" in created) {
        setBusy(null);
        return showAlert(created.error || messages.errors.declined);
      }
      await pay(payRequestOf(current.id, values, { stripePaymentMethodId: created.id }), current);
      return;
    }
    await pay(payRequestOf(current.id, values, { withCard: sandboxCard }), current);
  };
  const onInvalid = (_errors: FieldErrors<CheckoutFormValues>) => setAlert(messages.errors.fixFields);

  async function payWithSimulatedWallet(wallet: CheckoutMethod) {
    const ok = await trigger(["name", "email", "phone", "line1", "city", "postalCode", "country"], { shouldFocus: true });
    if (!ok) return setAlert(messages.errors.fixFields);
    const { payRequestOf, simulatedWalletCard } = await loadFormRules();
    await pay(payRequestOf(wallet.id, getValues(), { card: simulatedWalletCard() }), wallet);
  }

  async function payWithLiveWallet(kind: WalletKind, paymentMethodId: string, details: CustomerDetails) {
    const wallet = wallets.find((w) => w.method === kind);
    if (!wallet) return false;
    const { customerDetailsOf } = await loadFormRules();
    const typed = customerDetailsOf(getValues());
    const merged = { ...typed, ...Object.fromEntries(Object.entries(details).filter(([, v]) => v)) };
    return pay({ paymentMethodId: wallet.id, stripePaymentMethodId: paymentMethodId, customerDetails: merged }, wallet);
  }

  // Card brands decide the grouping (Amex 4-6-5): their rules load when the customer reaches the
  // field; until then (a fast typist) digits are grouped 4-4-4-4 and regrouped once they are in.
  const cardNumber = register("cardNumber", {
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const brands = cardBrands.loaded;
      setValue("cardNumber", brands ? brands.formatCardNumber(e.target.value) : groupCardDigits(e.target.value));
      if (!brands) void loadCardBrands().then(({ formatCardNumber }) => setValue("cardNumber", formatCardNumber(getValues("cardNumber"))));
    },
  });
  const expiry = register("expiry", {
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      // Deleting keeps what is left as it is; typing forward adds the slash.
      const deleting = (e.nativeEvent as InputEvent).inputType?.startsWith("delete");
      if (!deleting) setValue("expiry", formatExpiryInput(e.target.value));
    },
  });
  const fillTestCard = (number: string) => {
    setValue("cardNumber", printedTestCard(number), { shouldValidate: formState.isSubmitted });
    if (!getValues("expiry")) setValue("expiry", `12/${String((new Date().getFullYear() + 3) % 100).padStart(2, "0")}`);
    if (!getValues("cvc")) setValue("cvc", "123");
  };

  const LiveExpress = live?.ExpressButtons;
  const LiveCard = live?.CardElement;
  const disabled = busy !== null || !hydrated;

  return (
    <form className="card pay-form" method="post" noValidate onSubmit={(event) => void form.handleSubmit(onValid, onInvalid)(event)} aria-labelledby="pay-title" data-testid="pay-form">
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
        <div className="wallets">
          {sandbox ? (
            <>
              {wallets.map((w) => (
                <button key={w.id} type="button" className={`wallet ${w.method}`} disabled={disabled} onClick={() => void payWithSimulatedWallet(w)}>
                  <MethodIcon src={w.image} size={20} />
                  {w.method === "apple_pay" ? messages.wallet.applePay : messages.wallet.googlePay}
                </button>
              ))}
              <p className="hint">{messages.wallet.simulated}</p>
            </>
          ) : LiveExpress ? (
            <LiveExpress
              applePay={wallets.some((w) => w.method === "apple_pay")}
              googlePay={wallets.some((w) => w.method === "google_pay")}
              onPaymentMethod={payWithLiveWallet}
            />
          ) : null}
          {formMethods.length ? <p className="divider">{messages.methods.or}</p> : null}
        </div>
      ) : null}

      {formMethods.length > 1 ? (
        <fieldset className="methods">
          <legend className="visually-hidden">{messages.methods.legend}</legend>
          {formMethods.map((m) => (
            <label key={m.id} className={`method ${m.id === current?.id ? "selected" : ""}`}>
              <input type="radio" {...register("method", { onChange: (e: React.ChangeEvent<HTMLInputElement>) => onMethodChange(e.target.value) })} value={m.id} disabled={disabled} />
              <MethodIcon src={m.image} size={24} />
              <span>{methodName(m)}</span>
            </label>
          ))}
        </fieldset>
      ) : null}

      {current && isCard(current) ? (
        sandbox ? (
          <fieldset className="group">
            <legend>{messages.card.legend}</legend>
            <Field id="cardNumber" label={messages.card.number} error={errors.cardNumber?.message}>
              <input
                {...cardNumber}
                onFocus={() => void loadCardBrands()}
                id="cardNumber"
                inputMode="numeric"
                autoComplete="cc-number"
                placeholder="1234 1234 1234 1234"
                maxLength={23}
                {...invalid("cardNumber", errors.cardNumber?.message)}
              />
            </Field>
            <div className="row">
              <Field id="expiry" label={messages.card.expiry} error={errors.expiry?.message}>
                <input {...expiry} id="expiry" inputMode="numeric" autoComplete="cc-exp" placeholder="MM/YY" maxLength={7} {...invalid("expiry", errors.expiry?.message)} />
              </Field>
              <Field id="cvc" label={messages.card.cvc} error={errors.cvc?.message}>
                <input {...register("cvc")} id="cvc" inputMode="numeric" autoComplete="cc-csc" placeholder="123" maxLength={4} {...invalid("cvc", errors.cvc?.message)} />
              </Field>
            </div>
            <TestCards messages={messages} onUse={fillTestCard} disabled={disabled} />
          </fieldset>
        ) : LiveCard ? (
          <fieldset className="group">
            <legend>{messages.card.legend}</legend>
            <p className="hint">{messages.card.live}</p>
            <LiveCard />
          </fieldset>
        ) : null
      ) : current?.redirect ? (
        <p className="hint">{interpolate(messages.methods.redirectNote, { method: methodName(current) })}</p>
      ) : null}

      <fieldset className="group">
        <legend>{messages.billing.legend}</legend>
        <Field id="name" label={messages.billing.name} error={errors.name?.message}>
          <input {...register("name")} id="name" autoComplete="name" {...invalid("name", errors.name?.message)} />
        </Field>
        <Field id="email" label={messages.billing.email} error={errors.email?.message}>
          <input {...register("email")} id="email" type="email" autoComplete="email" {...invalid("email", errors.email?.message)} />
        </Field>
        <Field id="phone" label={messages.billing.phone} optional={messages.billing.optional} error={errors.phone?.message}>
          <input {...register("phone")} id="phone" type="tel" autoComplete="tel" {...invalid("phone", errors.phone?.message)} />
        </Field>
        <Field id="line1" label={messages.billing.line1} optional={messages.billing.optional} error={errors.line1?.message}>
          <input {...register("line1")} id="line1" autoComplete="address-line1" {...invalid("line1", errors.line1?.message)} />
        </Field>
        <div className="row">
          <Field id="city" label={messages.billing.city} optional={messages.billing.optional} error={errors.city?.message}>
            <input {...register("city")} id="city" autoComplete="address-level2" {...invalid("city", errors.city?.message)} />
          </Field>
          <Field id="postalCode" label={messages.billing.postalCode} optional={messages.billing.optional} error={errors.postalCode?.message}>
            <input {...register("postalCode")} id="postalCode" autoComplete="postal-code" {...invalid("postalCode", errors.postalCode?.message)} />
          </Field>
        </div>
        <Field id="country" label={messages.billing.country} error={errors.country?.message}>
          <select {...register("country")} id="country" autoComplete="country" {...invalid("country", errors.country?.message)}>
            <CountryOptions countries={countries} placeholder={messages.billing.chooseCountry} />
          </select>
        </Field>
      </fieldset>

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

const noSubscription = () => () => {};

/** Validation and the pay request's shape (zod and card-validator): loaded on the first payment. */
const loadFormRules = () => import("@/lib/checkout/checkout-form");

type CardBrands = typeof CardBrandsModule;

/** card-validator's brand rules, loaded once the customer reaches the card number. */
const cardBrands: { loaded?: CardBrands } = {};
function loadCardBrands() {
  return import("@/lib/checkout/card").then((module) => (cardBrands.loaded = module));
}

/** Stripe's test cards are all Visa, printed 4-4-4-4 (card-validator agrees: lib/checkout/card.test.ts). */
const printedTestCard = (number: string) => groupCardDigits(number);

/** A method's small local logo, decorative (its name is written next to it). */
function MethodIcon({ src, size }: { src: string; size: number }) {
  // Not next/image: it sets an inline style attribute, which the page's CSP refuses.
  // eslint-disable-next-line @next/next/no-img-element
  return <img src={src} alt="" width={size} height={size} className="method-icon" />;
}

function invalid(id: string, error: string | undefined) {
  return error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
}

function Field({ id, label, optional, error, children }: { id: string; label: string; optional?: string; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {optional ? <span className="optional"> ({optional})</span> : null}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function TestCards({ messages, onUse, disabled }: { messages: CheckoutMessages; onUse: (number: string) => void; disabled: boolean }) {
  const headingId = useId();
  return (
    <div className="test-cards">
      <h3 id={headingId}>{messages.card.testCards}</h3>
      <ul aria-labelledby={headingId}>
        {testCards.map((card) => {
          const printed = printedTestCard(card.number);
          return (
            <li key={card.number}>
              <code>{printed}</code>
              <span className="outcome">{messages.card.outcomes[card.outcome]}</span>
              <button type="button" className="link-button" disabled={disabled} onClick={() => onUse(card.number)} aria-label={`${messages.card.useCard} ${printed}`}>
                {messages.card.useCard}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
