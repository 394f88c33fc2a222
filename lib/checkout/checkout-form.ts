import { z } from "zod";
import type { Messages } from "@/lib/i18n/messages";
import { cardDigits, cvcLength, isExpired, isValidCardNumber, parseExpiry } from "./card";
import { isCountryCode } from "./countries";
import type { PayRequest } from "./pay-request";

/** The hosted page's form, as typed (strings everywhere). */
export type CheckoutFormValues = {
  /** The chosen payment method's id (radio group, or the only method). */
  method: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
  name: string;
  email: string;
  phone: string;
  line1: string;
  city: string;
  postalCode: string;
  country: string;
};

export const billingFields = ["name", "email", "phone", "line1", "city", "postalCode", "country"] as const;
export const cardFields = ["cardNumber", "expiry", "cvc"] as const;

/**
 * Validation of the form, with the customer's language. Billing: name, e-mail and country are
 * required, the rest optional. Card fields only count when the chosen method is one of
 * `cardMethods` (the sandbox card form; live card details are Stripe's Payment Element's).
 */
export function checkoutFormSchema(errors: Messages["errors"], { cardMethods, now = new Date() }: { cardMethods: string[]; now?: Date }) {
  const bounded = (max: number) =>
    z.string().trim().max(max, errors.tooLong).refine((s) => !/[\u0000-\u001f\u007f]/.test(s), errors.tooLong);
  const billing = z.object({
    name: bounded(200).min(1, errors.required),
    email: z.string().trim().min(1, errors.required).pipe(z.email(errors.email).max(254, errors.tooLong)),
    phone: bounded(40),
    line1: bounded(200),
    city: bounded(100),
    postalCode: bounded(20),
    country: z.string().refine(isCountryCode, errors.country),
    method: z.string(),
    cardNumber: z.string(),
    expiry: z.string(),
    cvc: z.string(),
  });
  return billing.superRefine((values, ctx) => {
    if (!cardMethods.includes(values.method)) return;
    if (!isValidCardNumber(values.cardNumber))
      ctx.addIssue({ code: "custom", path: ["cardNumber"], message: errors.cardNumber });
    const expiry = parseExpiry(values.expiry);
    if (!expiry) ctx.addIssue({ code: "custom", path: ["expiry"], message: errors.expiry });
    else if (isExpired(expiry, now)) ctx.addIssue({ code: "custom", path: ["expiry"], message: errors.cardExpired });
    if (!new RegExp(`^\\d{${cvcLength(values.cardNumber)}}$`).test(values.cvc.trim()))
      ctx.addIssue({ code: "custom", path: ["cvc"], message: errors.cvc });
  });
}

/** Billing details as PayInput's customerDetails: blank fields left out. */
export function customerDetailsOf(values: CheckoutFormValues): NonNullable<PayRequest["customerDetails"]> {
  const clean = (s: string) => s.trim() || undefined;
  const address = {
    line1: clean(values.line1),
    city: clean(values.city),
    postal_code: clean(values.postalCode),
    country: clean(values.country),
  };
  return {
    name: clean(values.name),
    email: clean(values.email),
    phone: clean(values.phone),
    address: Object.values(address).some(Boolean) ? address : undefined,
  };
}

/** The pay request for a method, with the typed card when the sandbox card form is used. */
export function payRequestOf(
  paymentMethodId: string,
  values: CheckoutFormValues,
  options: { withCard?: boolean; card?: PayRequest["card"]; stripePaymentMethodId?: string } = {},
): PayRequest {
  const request: PayRequest = { paymentMethodId, customerDetails: customerDetailsOf(values) };
  if (options.card) request.card = options.card;
  else if (options.withCard) {
    const expiry = parseExpiry(values.expiry);
    if (!expiry) throw new Error("payRequestOf: the form was not validated");
    request.card = { number: cardDigits(values.cardNumber), ...expiry, cvc: values.cvc.trim() };
  }
  if (options.stripePaymentMethodId) request.stripePaymentMethodId = options.stripePaymentMethodId;
  return request;
}

/** The card the simulated Apple Pay and Google Pay buttons pay with (test mode only). */
export function simulatedWalletCard(now = new Date()): NonNullable<PayRequest["card"]> {
  return { number: "4242424242424242", expMonth: 12, expYear: now.getFullYear() + 3, cvc: "123" };
}
