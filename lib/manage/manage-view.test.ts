import { describe, expect, it } from "vitest";
import { messagesFor } from "@/lib/i18n";
import type { ManagedSubscription } from "@/lib/subscriptions/get-managed-subscription";
import { cardBrandName, formatDay, manageAction, manageStatus, pricePerInterval } from "./manage-view";

const base: ManagedSubscription = {
  id: "psub_1",
  businessId: "biz_1",
  merchant: "Acme",
  mode: "sandbox",
  status: "active",
  amount: 2500,
  currency: "USD",
  interval: "month",
  intervalCount: 1,
  itemNames: ["Pro"],
  currentPeriodEnd: "2026-12-22T10:00:00.000000Z",
  cancelAtPeriodEnd: false,
  cancelRequestedBy: null,
  canceledAt: null,
  card: { brand: "visa", last4: "4242" },
};
const sub = (overrides: Partial<ManagedSubscription>) => ({ ...base, ...overrides });

describe("the management page's view of a subscription", () => {
  it("names the status, canceling when an end is scheduled", () => {
    expect(manageStatus(base)).toBe("active");
    expect(manageStatus(sub({ status: "past_due" }))).toBe("past_due");
    expect(manageStatus(sub({ cancelAtPeriodEnd: true, cancelRequestedBy: "api" }))).toBe("canceling");
    expect(manageStatus(sub({ status: "canceled", cancelAtPeriodEnd: true }))).toBe("canceled");
  });

  it("offers cancel when active, undo only of the payer's own cancellation, nothing otherwise", () => {
    expect(manageAction(base)).toBe("cancel");
    expect(manageAction(sub({ cancelAtPeriodEnd: true, cancelRequestedBy: "payer" }))).toBe("resume");
    for (const by of ["api", "manager", "admin", "system", null] as const)
      expect(manageAction(sub({ cancelAtPeriodEnd: true, cancelRequestedBy: by })), String(by)).toBe(
        "merchant_scheduled",
      );
    expect(manageAction(sub({ status: "past_due" }))).toBe("past_due");
    expect(manageAction(sub({ status: "canceled" }))).toBe("ended");
  });

  it("writes the price per interval in each language", () => {
    expect(pricePerInterval(base, "en", messagesFor("en"))).toBe("$25.00 every month");
    expect(pricePerInterval(sub({ intervalCount: 3 }), "en", messagesFor("en"))).toBe(
      "$25.00 every 3 months",
    );
    expect(pricePerInterval(sub({ interval: "year" }), "es", messagesFor("es"))).toMatch(
      /^25,00\sUS\$ cada año$/,
    );
    expect(
      pricePerInterval(sub({ interval: "week", intervalCount: 2 }), "pt-BR", messagesFor("pt-BR")),
    ).toMatch(/^US\$\s25,00 a cada 2 semanas$/);
  });

  it("formats days in UTC and card brands for people", () => {
    expect(formatDay("2026-12-31T23:30:00.000000Z", "en")).toBe("December 31, 2026");
    expect(formatDay("2026-12-31T23:30:00.000000Z", "es")).toBe("31 de diciembre de 2026");
    expect(cardBrandName("visa")).toBe("Visa");
    expect(cardBrandName("amex")).toBe("American Express");
    expect(cardBrandName("elo")).toBe("Elo");
  });
});
