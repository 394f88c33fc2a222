import { describe, expect, it } from "vitest";
import { formatAmount } from "@/lib/i18n/format";
import { formatMoney as formatSimulatorMoney } from "@/lib/providers/sandbox/format";
import { formatMoney, formatMoneyOrDash } from "./money";

describe("formatMoney", () => {
  it("formats integer cents", () => {
    expect(formatMoney(2500, "USD")).toBe("$25.00");
    expect(formatMoney(1, "USD")).toBe("$0.01");
    expect(formatMoney(0, "USD")).toBe("$0.00");
    expect(formatMoney(123456789, "USD")).toBe("$1,234,567.89");
    expect(formatMoney(-1050, "USD")).toBe("-$10.50");
  });

  it("follows the locale", () => {
    expect(formatMoney(3700, "USD", "pt-BR")).toBe("US$\u00a037,00");
  });

  it("shows a currency Intl does not know instead of throwing", () => {
    expect(formatMoney(2500, "XX")).toBe("25.00 XX");
  });

  it("shows a dash for a missing amount", () => {
    expect(formatMoneyOrDash(null, "USD")).toBe("—");
    expect(formatMoneyOrDash(undefined)).toBe("—");
    expect(formatMoneyOrDash(99, "USD")).toBe("$0.99");
  });

  it("is what the hosted pages and the simulator page format with", () => {
    expect(formatAmount(3700, "USD", "pt-BR")).toBe(formatMoney(3700, "USD", "pt-BR"));
    expect(formatAmount(3700, "USD", "en")).toBe("$37.00");
    expect(formatSimulatorMoney(1250, "USD")).toBe(formatMoney(1250, "USD"));
  });
});
