import { describe, expect, it } from "vitest";
import { en } from "@/lib/i18n/dictionaries/en";
import { checkoutFormSchema, customerDetailsOf, payRequestOf, simulatedWalletCard, type CheckoutFormValues } from "./checkout-form";
import { payRequestSchema } from "./pay-request";

const now = new Date(2030, 0, 10);
const values = (overrides: Partial<CheckoutFormValues> = {}): CheckoutFormValues => ({
  method: "stripe_credit",
  cardNumber: "4242 4242 4242 4242",
  expiry: "12/34",
  cvc: "123",
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "",
  line1: "",
  city: "",
  postalCode: "",
  country: "GB",
  ...overrides,
});
const schema = checkoutFormSchema(en.errors, { cardMethods: ["stripe_credit"], now });
const issues = (input: CheckoutFormValues) => {
  const result = schema.safeParse(input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("checkoutFormSchema", () => {
  it("accepts a complete form", () => {
    expect(issues(values())).toEqual({});
  });

  it("reports billing and card problems together, in the customer's words", () => {
    expect(issues(values({ name: " ", email: "nope", country: "", cardNumber: "4242 4242 4242 4241", expiry: "12/29", cvc: "12" }))).toEqual({
      name: en.errors.required,
      email: en.errors.email,
      country: en.errors.country,
      cardNumber: en.errors.cardNumber,
      expiry: en.errors.cardExpired,
      cvc: en.errors.cvc,
    });
  });

  it("asks Amex for four digits", () => {
    expect(issues(values({ cardNumber: "378282246310005", cvc: "123" }))).toEqual({ cvc: en.errors.cvc });
    expect(issues(values({ cardNumber: "378282246310005", cvc: "1234" }))).toEqual({});
  });

  it("ignores the card fields for other methods", () => {
    expect(issues(values({ method: "sandbox_bitcoin", cardNumber: "", expiry: "", cvc: "" }))).toEqual({});
  });

  it("refuses unknown countries and control characters", () => {
    expect(issues(values({ country: "XX" }))).toEqual({ country: en.errors.country });
    expect(issues(values({ city: "a\u0000b" }))).toEqual({ city: en.errors.tooLong });
  });
});

describe("pay requests", () => {
  it("sends the typed card and only the billing fields filled in", () => {
    const request = payRequestOf("stripe_credit", values({ line1: " 1 Main St ", postalCode: "N1 9GU" }), { withCard: true });
    expect(request).toEqual({
      paymentMethodId: "stripe_credit",
      card: { number: "4242424242424242", expMonth: 12, expYear: 2034, cvc: "123" },
      customerDetails: {
        name: "Ada Lovelace",
        email: "ada@example.com",
        address: { line1: "1 Main St", postal_code: "N1 9GU", country: "GB" },
      },
    });
    expect(payRequestSchema.safeParse(JSON.parse(JSON.stringify(request))).success).toBe(true);
  });

  it("a redirect method sends no card", () => {
    const request = payRequestOf("sandbox_bitcoin", values());
    expect(request.card).toBeUndefined();
    expect(customerDetailsOf(values({ country: "" })).address).toBeUndefined();
  });

  it("simulated wallets pay with 4242 in the future", () => {
    expect(simulatedWalletCard(now)).toEqual({ number: "4242424242424242", expMonth: 12, expYear: 2033, cvc: "123" });
  });
});

describe("payRequestSchema", () => {
  it("refuses what the page never sends", () => {
    const bad = [
      {},
      { paymentMethodId: "Stripe Credit" },
      { paymentMethodId: "stripe_credit", card: { number: "4242", expMonth: 1, expYear: 2030, cvc: "123" } },
      { paymentMethodId: "stripe_credit", card: { number: "4242424242424242", expMonth: 13, expYear: 2030, cvc: "123" } },
      { paymentMethodId: "stripe_credit", stripePaymentMethodId: "tok_123" },
      { paymentMethodId: "stripe_credit", customerDetails: { email: "x" } },
      { paymentMethodId: "stripe_credit", customerDetails: { name: "a\u0000" } },
      { paymentMethodId: "stripe_credit", customerDetails: { address: { country: "USA" } } },
      { paymentMethodId: "stripe_credit", extra: true },
    ];
    for (const body of bad) expect(payRequestSchema.safeParse(body).success, JSON.stringify(body)).toBe(false);
  });

  it("normalises what it accepts", () => {
    const parsed = payRequestSchema.parse({
      paymentMethodId: "stripe_credit",
      customerDetails: { name: "  Ada ", email: "", address: { country: "gb", city: "" } },
    });
    expect(parsed.customerDetails).toEqual({ name: "Ada", email: undefined, address: { country: "GB", city: undefined } });
  });
});
