import { describe, expect, it } from "vitest";
import { dashboardFields, dashboardMessage, fieldInWords } from "./dashboard-words";

// Issue 41, item 24: the dashboard says amounts in dollars and fields in words, whatever the API's
// message said.

describe("dashboardMessage", () => {
  it.each([
    ["amount must be at least 100", "The amount must be at least $1.00"],
    ["amount must be at most 99999999", "The amount must be at most $999,999.99"],
    ["price x minimum must be at least 100 cents (a session's smallest amount)", "price x minimum must be at least $1.00 (a session's smallest amount)"],
    ["amount may be at most 1000 cents: the payment is 5500 and 4500 is already refunded", "The amount may be at most $10.00: the payment is $55.00 and $45.00 is already refunded"],
    ["The business balance is too low for this refund: it needs 1605 cents (the refunded share of the net amount)", "The business balance is too low for this refund: it needs $16.05 (the refunded share of the net amount)"],
    ["amount must be an integer number of cents between 1 and 500000", "The amount must be an amount from $0.01 to $5,000.00"],
    ["amount must be at least 1 (cents); leave it out to refund what is left", "The amount must be at least $0.01; leave it out to refund what is left"],
    ["amount must be a positive integer (cents)", "The amount must be more than $0.00"],
    ["screeningFeeCents must be at most 100000", "The screening fee must be at most $1,000.00"],
    ["customer_details.email must be a valid e-mail address", "The customer's e-mail must be a valid e-mail address"],
    ["[0].price: price must be at least 1", "Item 1, price: the price must be at least $0.01"],
  ])("%s → %s", (api, words) => {
    expect(dashboardMessage(api)).toBe(words);
  });

  it("leaves counts that are not money, and plain wording, as they are", () => {
    expect(dashboardMessage("max_uses must be at most 1000000")).toBe("The limit of uses must be at most 1000000");
    expect(dashboardMessage("The business name must be at most 100 characters")).toBe("The business name must be at most 100 characters");
    expect(dashboardMessage("business is required")).toBe("business is required");
    expect(dashboardMessage("Use \".\" before at most 2 digits of cents, like 1,234.50")).toBe("Use \".\" before at most 2 digits of cents, like 1,234.50");
  });

  it("keeps a field map's keys (the forms' inputs) and words its messages", () => {
    expect(dashboardFields({ amount: ["amount must be at least 100"] })).toEqual({ amount: ["The amount must be at least $1.00"] });
  });

  it("names fields in words", () => {
    expect(fieldInWords("canceled_by")).toBe("who canceled");
    expect(fieldInWords("customer_details.email")).toBe("customer's e-mail");
    expect(fieldInWords("velocity_window_minutes")).toBe("velocity window minutes");
  });
});
