import { describe, expect, it } from "vitest";
import { messagesFor } from "@/lib/i18n";
import { locales } from "@/lib/i18n/locales";
import { checkoutMessages } from "./checkout-messages";
import { intervalWords, recurringPriceText } from "./recurring-price";

describe("checkoutMessages", () => {
  it.each(locales)("hands the checkout's client components their words only (%s)", (locale) => {
    const all = messagesFor(locale);
    const picked = checkoutMessages(all);
    expect(picked).toEqual({
      summary: all.summary,
      methods: all.methods,
      wallet: all.wallet,
      card: all.card,
      billing: all.billing,
      errors: all.errors,
      pay: all.pay,
      states: all.states,
      manage: { every: all.manage.every, pricePerInterval: all.manage.pricePerInterval },
    });
    expect(JSON.stringify(picked).length).toBeLessThan(JSON.stringify(all).length);
  });

  it("writes a plan's price as the whole dictionary does", () => {
    const all = messagesFor("es");
    const plan = { interval: "month", intervalCount: 3 } as const;
    expect(recurringPriceText("25,00 US$", plan, checkoutMessages(all))).toBe(recurringPriceText("25,00 US$", plan, all));
    expect(intervalWords(plan, checkoutMessages(all))).toBe(intervalWords(plan, all));
    expect(intervalWords(plan, all)).toContain("3");
  });
});
