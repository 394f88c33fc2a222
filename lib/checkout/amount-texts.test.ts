import { describe, expect, it } from "vitest";
import { formatAmount } from "@/lib/i18n/format";
import { amountText, checkoutAmountTexts } from "./amount-texts";
import type { CheckoutMethod, CheckoutPageData } from "./get-checkout";

const method = (id: string, total: number, customerFee: number, renewalAmount: number): CheckoutMethod => ({
  id,
  provider: "stripe",
  method: id,
  name: id,
  image: `/methods/${id}.svg`,
  redirect: false,
  countries: null,
  total,
  customerFee,
  renewalAmount,
});

const page = (overrides: Partial<CheckoutPageData> = {}): CheckoutPageData => ({
  sessionId: "cs_01TEST",
  merchant: "Shop",
  mode: "sandbox",
  returnUrl: null,
  description: null,
  items: [
    { name: "Notebook", quantity: 2, price: 1200 },
    { name: "Pen", quantity: 1, price: 1300 },
  ],
  amount: 3700,
  currency: "USD",
  subscription: null,
  state: "open",
  paidAmount: null,
  paidMethod: null,
  failureCode: null,
  methods: [method("credit", 3700, 0, 3700), method("bitcoin", 3811, 111, 3700)],
  prefill: { name: "", email: "", phone: "" },
  stripePublishableKey: null,
  branding: { palette: null, logoUrl: null },
  ...overrides,
});

describe("checkoutAmountTexts", () => {
  it("formats every amount the page shows before the customer acts, in the page's locale", () => {
    expect(checkoutAmountTexts(page(), "en")).toEqual({
      0: "$0.00",
      111: "$1.11",
      1300: "$13.00",
      2400: "$24.00",
      3700: "$37.00",
      3811: "$38.11",
    });
    const es = checkoutAmountTexts(page(), "es");
    expect(es[3811]).toBe(formatAmount(3811, "USD", "es"));
    expect(es[3811]).toMatch(/^38,11\sUS\$$/);
  });

  it("includes a payment's own amount and the fee it paid over the session's amount", () => {
    const texts = checkoutAmountTexts(page({ state: "succeeded", paidAmount: 3811, paidMethod: "bitcoin", methods: [] }), "pt-BR");
    expect(texts[3811]).toBe(formatAmount(3811, "USD", "pt-BR"));
    expect(texts[111]).toBe(formatAmount(111, "USD", "pt-BR"));
  });
});

describe("amountText", () => {
  it("uses the server's text, and formats an amount it does not have", () => {
    const texts = { 3700: "server text" };
    expect(amountText(texts, 3700, "USD", "en")).toBe("server text");
    expect(amountText(texts, 4200, "USD", "en")).toBe("$42.00");
    expect(amountText(texts, 4200, "USD", "es")).toBe(formatAmount(4200, "USD", "es"));
  });
});
