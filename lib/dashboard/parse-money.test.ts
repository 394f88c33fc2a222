import { describe, expect, it } from "vitest";
import { moneyLocale, parseMoney, separators, understood, withMoney } from "./parse-money";
import { z } from "zod";

const cents = (text: string, locale?: string) => {
  const parsed = parseMoney(text, locale);
  return parsed.ok ? parsed.cents : parsed.message;
};

describe("parseMoney: money typed by staff, read with their locale", () => {
  it.each([
    ["12", "en-US", 1200],
    ["12.5", "en-US", 1250],
    ["12.50", "en-US", 1250],
    ["1,234.50", "en-US", 123450],
    ["1,234,567", "en-US", 123456700],
    ["$ 3.07", "en-US", 307],
    ["0.01", "en-US", 1],
    ["1,50", "de-DE", 150],
    ["1.234,5", "de-DE", 123450],
    ["1 234,50", "fr-FR", 123450],
    ["1\u202f234,50", "fr-FR", 123450],
    ["007", "en-US", 700],
  ])("%s in %s is %i cents", (text, locale, expected) => {
    expect(cents(text, locale)).toBe(expected);
  });

  it("never reads a decimal comma as thousands: 1,50 is refused in en-US, not $150.00", () => {
    expect(typeof cents("1,50", "en-US")).toBe("string");
    expect(cents("1,50", "en-US")).toMatch(/"," separates thousands and "\." the cents/);
    expect(typeof cents("1,00", "en-US")).toBe("string");
    expect(typeof cents("1.50", "de-DE")).toBe("string"); // the same mistake the other way round
  });

  it.each(["", "  ", "abc", "-5", "1e3", "1.234", "1.", ".5x", "1,2345", "12,34,567", "1.2.3", "\u0000", "1\u00005", "1.5.", "1234567890"])(
    "refuses %j with a message",
    (text) => {
      const parsed = parseMoney(text, "en-US");
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message.length).toBeGreaterThan(5);
    },
  );

  it("knows each locale's separators and falls back to en-US for a tag it cannot use", () => {
    expect(separators("en-US")).toEqual({ decimal: ".", group: "," });
    expect(separators("de-DE")).toEqual({ decimal: ",", group: "." });
    expect(moneyLocale("not a locale")).toBe("en-US");
    expect(moneyLocale(undefined)).toBe("en-US");
    expect(moneyLocale("de-DE")).toBe("de-DE");
  });

  it("says what it understood, in the staff member's locale", () => {
    expect(understood("1,50", "de-DE")).toMatch(/^Understood: 1,50\s\$$/);
    expect(understood("1.50", "en-US")).toBe("Understood: $1.50");
    expect(understood("", "en-US")).toBe("");
    expect(understood("1,50", "en-US")).toMatch(/Cannot read/);
  });
});

describe("withMoney: a form schema reading its money fields as cents", () => {
  const schema = withMoney({ note: z.string().optional() }, { amount: { what: "amount" }, fee: { what: "fee", optional: true, zero: true } });

  it("reads each field with the form's locale; optional fields may be empty or zero", () => {
    expect(schema.parse({ amount: "1,50", fee: "", locale: "de-DE" })).toMatchObject({ amount: 150, fee: null });
    expect(schema.parse({ amount: "2", fee: "0", locale: "en-US" })).toMatchObject({ amount: 200, fee: 0 });
  });

  it("refuses, naming the field, what it cannot read and a zero amount where one is required", () => {
    const misread = schema.safeParse({ amount: "1,50", fee: "", locale: "en-US" });
    expect(misread.success).toBe(false);
    expect(misread.error?.issues[0]).toMatchObject({ path: ["amount"] });
    expect(schema.safeParse({ amount: "0", fee: "" }).success).toBe(false);
    expect(schema.safeParse({ fee: "" }).error?.issues[0]?.message).toBe("amount is required");
  });
});
