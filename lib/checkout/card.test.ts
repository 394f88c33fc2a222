import { describe, expect, it } from "vitest";
import { cardDigits, cvcLength, formatCardNumber, formatExpiryInput, isExpired, isValidCardNumber, parseExpiry, testCards } from "./card";
import { groupCardDigits } from "./card-input";

describe("card numbers", () => {
  it("accepts every Stripe test card the sandbox documents", () => {
    for (const card of testCards) expect(isValidCardNumber(card.number), card.number).toBe(true);
  });

  it("accepts spaces and dashes, refuses bad checksums and lengths", () => {
    expect(isValidCardNumber("4242 4242 4242 4242")).toBe(true);
    expect(isValidCardNumber("4242-4242-4242-4242")).toBe(true);
    expect(isValidCardNumber("4242 4242 4242 4241")).toBe(false);
    expect(isValidCardNumber("4242")).toBe(false);
    expect(isValidCardNumber("")).toBe(false);
    expect(isValidCardNumber("abcd efgh ijkl mnop")).toBe(false);
  });

  it("groups digits as printed", () => {
    expect(formatCardNumber("4242424242424242")).toBe("4242 4242 4242 4242");
    expect(formatCardNumber("378282246310005")).toBe("3782 822463 10005");
    expect(formatCardNumber("4242 42x")).toBe("4242 42");
    expect(cardDigits("4242 4242-4242 4242")).toBe("4242424242424242");
  });

  it("groups without card-validator as it does for Visa (what the page shows before the brand rules load)", () => {
    // The checkout page prints the test cards and groups early keystrokes with groupCardDigits.
    for (const card of testCards) expect(groupCardDigits(card.number)).toBe(formatCardNumber(card.number));
    for (const typed of ["", "4", "4242 4", "4242424242424242", "5555555555554444"])
      expect(groupCardDigits(typed), typed).toBe(formatCardNumber(typed));
    expect(groupCardDigits("378282246310005", [4, 10])).toBe("3782 822463 10005");
  });

  it("knows Amex codes have four digits", () => {
    expect(cvcLength("378282246310005")).toBe(4);
    expect(cvcLength("4242424242424242")).toBe(3);
    expect(cvcLength("")).toBe(3);
  });
});

describe("expiry", () => {
  it.each([
    ["12/34", { expMonth: 12, expYear: 2034 }],
    ["1/30", { expMonth: 1, expYear: 2030 }],
    ["0130", { expMonth: 1, expYear: 2030 }],
    [" 06 / 2031 ", { expMonth: 6, expYear: 2031 }],
    ["13/30", null],
    ["00/30", null],
    ["130", null],
    ["12/3", null],
    ["", null],
  ])("%j", (value, expected) => {
    expect(parseExpiry(value)).toEqual(expected);
  });

  it("is good through the end of its month", () => {
    const now = new Date(2030, 5, 15); // June 2030
    expect(isExpired({ expMonth: 6, expYear: 2030 }, now)).toBe(false);
    expect(isExpired({ expMonth: 5, expYear: 2030 }, now)).toBe(true);
    expect(isExpired({ expMonth: 1, expYear: 2031 }, now)).toBe(false);
    expect(isExpired({ expMonth: 12, expYear: 2029 }, now)).toBe(true);
  });

  it("adds the slash while typing", () => {
    expect(formatExpiryInput("1")).toBe("1");
    expect(formatExpiryInput("4")).toBe("04/");
    expect(formatExpiryInput("12")).toBe("12/");
    expect(formatExpiryInput("1229")).toBe("12/29");
    expect(formatExpiryInput("12/295")).toBe("12/29");
  });
});
