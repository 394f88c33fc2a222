import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chargeFor, feeOn } from "./compute-fees";

const card = { staticCents: 30, ppm: 29_000 };

describe("fees", () => {
  it("follow the interface's formula: static + amount × percent", () => {
    expect(feeOn(10_000, card)).toBe(30 + 290);
    expect(feeOn(2_500, card)).toBe(30 + 73); // 72.5 rounds half up
    expect(feeOn(100, { staticCents: 0, ppm: 10_000 })).toBe(1);
  });

  it("come out of the amount unless passed to the customer", () => {
    expect(chargeFor(10_000, card, false)).toEqual({ gross: 10_000, fees: 320, net: 9_680 });
  });

  it("gross up so the business nets at least its amount when passed to the customer", () => {
    expect(chargeFor(10_000, card, true)).toEqual({ gross: 10_330, fees: 330, net: 10_000 });
  });

  it("never create or lose a cent: gross = fees + net, net within a cent of the amount", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 99_999_999 }),
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.boolean(),
        (amount, staticCents, ppm, pass) => {
          const charge = chargeFor(amount, { staticCents, ppm }, pass);
          expect(charge.gross).toBe(charge.fees + charge.net);
          expect(charge.fees).toBeGreaterThanOrEqual(0);
          if (pass) {
            expect(charge.net).toBeGreaterThanOrEqual(amount);
            // smallest such gross
            const lower = charge.gross - 1;
            expect(lower - feeOn(lower, { staticCents, ppm })).toBeLessThan(amount);
          } else expect(charge.gross).toBe(amount);
        },
      ),
      { numRuns: 500 },
    );
  });
});
