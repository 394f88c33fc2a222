"use client";

import { Elements, ExpressCheckoutElement, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe, StripeElementLocale } from "@stripe/stripe-js";
import { loadStripe } from "@stripe/stripe-js/pure";
import { useMemo, type ReactNode } from "react";
import type { Locale } from "@/lib/i18n/locales";
import { LiveStripeContext, type CustomerDetails, type LiveStripe } from "./live-stripe-context";

// Stripe.js is loaded from js.stripe.com (never bundled), once per publishable key.
const stripes = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let promise = stripes.get(publishableKey);
  if (!promise) {
    promise = loadStripe(publishableKey);
    stripes.set(publishableKey, promise);
  }
  return promise;
}

const stripeLocales: Record<Locale, StripeElementLocale> = { en: "en", es: "es", "pt-BR": "pt-BR" };

/** Stripe wants every billing field when the Payment Element collects none: blanks as "". */
function billingDetailsOf(details: CustomerDetails) {
  const address = details.address ?? {};
  return {
    name: details.name ?? "",
    email: details.email ?? "",
    phone: details.phone ?? "",
    address: {
      line1: address.line1 ?? "",
      line2: address.line2 ?? "",
      city: address.city ?? "",
      state: address.state ?? "",
      postal_code: address.postal_code ?? "",
      country: address.country ?? "",
    },
  };
}

function LiveCard() {
  return (
    <PaymentElement
      options={{
        layout: "tabs",
        wallets: { applePay: "never", googlePay: "never" },
        fields: { billingDetails: { name: "never", email: "never", phone: "never", address: "never" } },
      }}
    />
  );
}

const LiveExpress: LiveStripe["ExpressButtons"] = ({ applePay, googlePay, onPaymentMethod }) => {
  const stripe = useStripe();
  const elements = useElements();
  return (
    <ExpressCheckoutElement
      options={{
        emailRequired: true,
        paymentMethods: {
          applePay: applePay ? "always" : "never",
          googlePay: googlePay ? "always" : "never",
          link: "never",
          paypal: "never",
          amazonPay: "never",
          klarna: "never",
        },
      }}
      onConfirm={async (event) => {
        if (!stripe || !elements) return event.paymentFailed({ reason: "fail" });
        const { error: submitError } = await elements.submit();
        if (submitError) return event.paymentFailed({ reason: "fail" });
        const { paymentMethod, error } = await stripe.createPaymentMethod({
          elements,
          params: { billing_details: event.billingDetails ?? {} },
        });
        if (error || !paymentMethod) return event.paymentFailed({ reason: "fail" });
        const billing = event.billingDetails;
        const kind = event.expressPaymentType === "apple_pay" ? "apple_pay" : "google_pay";
        const ok = await onPaymentMethod(kind, paymentMethod.id, {
          name: billing?.name || undefined,
          email: billing?.email || undefined,
          phone: billing?.phone || undefined,
          address: billing?.address
            ? {
                line1: billing.address.line1 || undefined,
                line2: billing.address.line2 || undefined,
                city: billing.address.city || undefined,
                state: billing.address.state || undefined,
                postal_code: billing.address.postal_code || undefined,
                country: billing.address.country || undefined,
              }
            : undefined,
        });
        if (!ok) event.paymentFailed({ reason: "fail" });
      }}
    />
  );
};

function Bridge({ children }: { children: ReactNode }) {
  const stripe = useStripe();
  const elements = useElements();
  const value = useMemo<LiveStripe>(
    () => ({
      ready: Boolean(stripe && elements),
      CardElement: LiveCard,
      ExpressButtons: LiveExpress,
      async createPaymentMethod(details) {
        if (!stripe || !elements) return { error: "Stripe.js is not ready" };
        const { error: submitError } = await elements.submit();
        if (submitError) return { error: submitError.message ?? "" };
        const { paymentMethod, error } = await stripe.createPaymentMethod({
          elements,
          params: { billing_details: billingDetailsOf(details) },
        });
        return error || !paymentMethod ? { error: error?.message ?? "" } : { id: paymentMethod.id };
      },
    }),
    [stripe, elements],
  );
  return <LiveStripeContext.Provider value={value}>{children}</LiveStripeContext.Provider>;
}

/**
 * Live businesses: Stripe Elements in deferred-intent mode (no PaymentIntent until the customer
 * pays), creating PaymentMethods that the pay endpoint hands to the Stripe adapter.
 */
export default function LiveStripeProvider(props: {
  publishableKey: string;
  amount: number;
  currency: string;
  locale: Locale;
  children: ReactNode;
}) {
  return (
    <Elements
      stripe={stripeFor(props.publishableKey)}
      options={{
        mode: "payment",
        amount: props.amount,
        currency: props.currency.toLowerCase(),
        paymentMethodCreation: "manual",
        allowedPaymentMethodTypes: ["card"],
        locale: stripeLocales[props.locale],
        appearance: { theme: "stripe", variables: { fontFamily: "system-ui, sans-serif" } },
      }}
    >
      <Bridge>{props.children}</Bridge>
    </Elements>
  );
}
