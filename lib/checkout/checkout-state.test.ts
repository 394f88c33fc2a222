import { describe, expect, it } from "vitest";
import { paymentStatuses } from "@/db/schema";
import { canPay, checkoutState, pollInterval } from "./checkout-state";

describe("checkoutState", () => {
  it("maps every payment status", () => {
    expect(paymentStatuses.map((s) => checkoutState(s, false))).toEqual([
      "succeeded",
      "failed",
      "processing",
      "processing",
      "pending_review",
      "declined",
      "expired",
    ]);
  });

  it("an untouched session is open until it expires", () => {
    expect(checkoutState(null, false)).toBe("open");
    expect(checkoutState(null, true)).toBe("expired");
  });

  it("a payment in progress or done is not hidden by the session's age", () => {
    expect(checkoutState("succeeded", true)).toBe("succeeded");
    expect(checkoutState("processing", true)).toBe("processing");
  });

  it("lets the customer pay (again) only when open or after a failed attempt", () => {
    expect(canPay("open")).toBe(true);
    expect(canPay("failed")).toBe(true);
    for (const state of ["processing", "pending_review", "succeeded", "declined", "expired"] as const)
      expect(canPay(state)).toBe(false);
  });

  it("polls only states that change by themselves", () => {
    expect(pollInterval("processing")).toBe(2_000);
    expect(pollInterval("pending_review")).toBeGreaterThan(2_000);
    expect(pollInterval("open")).toBe(false);
    expect(pollInterval("succeeded")).toBe(false);
  });
});
