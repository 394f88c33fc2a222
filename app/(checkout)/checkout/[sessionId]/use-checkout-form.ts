"use client";

import { useEffect } from "react";
import { useForm, type Resolver, type UseFormSetValue } from "react-hook-form";
import type { CheckoutFormValues } from "@/lib/checkout/checkout-form";
import type { CheckoutMessages } from "@/lib/checkout/checkout-messages";
import type { CheckoutMethod, CheckoutPageData } from "@/lib/checkout/get-checkout";

/** Validation and the pay request's shape (zod and card-validator): loaded on the first payment. */
export const loadFormRules = () => import("@/lib/checkout/checkout-form");

export const isWallet = (m: { provider: string; method: string }) =>
  m.provider === "stripe" && (m.method === "apple_pay" || m.method === "google_pay");
export const isCard = (m: CheckoutMethod | undefined) => m?.provider === "stripe" && m.method === "credit";

/**
 * The form's state (react-hook-form). The sandbox card form is ours to validate; live card details
 * are Stripe's Payment Element's. The rules (zod, card brands) load when the customer first pays,
 * not with the page.
 */
export function useCheckoutForm(data: CheckoutPageData, methodId: string, messages: CheckoutMessages) {
  const cardMethods = data.mode === "sandbox" ? data.methods.filter(isCard).map((m) => m.id) : [];
  const resolver: Resolver<CheckoutFormValues> = async (values, context, options) => {
    const [{ checkoutFormSchema }, { zodResolver }] = await Promise.all([loadFormRules(), import("@hookform/resolvers/zod")]);
    return (zodResolver(checkoutFormSchema(messages.errors, { cardMethods })) as unknown as Resolver<CheckoutFormValues>)(
      values,
      context,
      options,
    );
  };
  return useForm<CheckoutFormValues>({
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
}

/**
 * The methods on offer for the billing country chosen so far: methods limited to some countries
 * (Pix: Brazil) are offered once the country fits. A chosen method no longer on offer gives way to
 * the first one that is (the form's value and the page's summary follow).
 */
export function useMethodsOnOffer(
  methods: CheckoutMethod[],
  country: string,
  methodId: string,
  onMethodChange: (id: string) => void,
  setValue: UseFormSetValue<CheckoutFormValues>,
) {
  const available = (m: CheckoutMethod) => !m.countries || !country || m.countries.includes(country);
  const wallets = methods.filter((m) => isWallet(m) && available(m));
  const formMethods = methods.filter((m) => !isWallet(m) && available(m));
  const current = formMethods.find((m) => m.id === methodId) ?? formMethods[0];
  const currentId = current?.id;
  useEffect(() => {
    if (!currentId || currentId === methodId) return;
    setValue("method", currentId);
    onMethodChange(currentId);
  }, [currentId, methodId, onMethodChange, setValue]);
  return { wallets, formMethods, current };
}
