import { describe, expect, it } from "vitest";
import { createPayoutSchema, settleSchema, withdrawalSchema } from "./payout-input";

// Postgres cannot store NUL characters: such text is a 400, never a 500 (found by payouts-fuzz).
describe("payout inputs refuse text Postgres cannot store", () => {
  it.each([
    ["withdrawal destination", withdrawalSchema, { amount: 100, destination: "iban\u0000" }, "destination"],
    ["withdrawal reference", withdrawalSchema, { amount: 100, destination: "iban", reference: "a\u0000b" }, "reference"],
    ["settlement reference", settleSchema, { settlement_reference: "\u0000" }, "settlement_reference"],
    ["rejection reason", settleSchema, { reason: "bad \ud800 surrogate" }, "reason"],
    ["payout e-mail", createPayoutSchema, { email: "a\u0000@b.co", amount: 100 }, "email"],
  ] as const)("%s", (_label, schema, input, field) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path[0])).toContain(field);
  });

  it("accepts ordinary text, emoji included", () => {
    expect(withdrawalSchema.safeParse({ amount: 100, destination: "IBAN DE89 💶", reference: "ref-1" }).success).toBe(true);
  });
});
