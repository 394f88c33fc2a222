import { describe, expect, it } from "vitest";
import { whoEnded } from "./apply-provider-state";

const periodEnd = new Date("2026-03-01T00:00:00Z");
const row = {
  cancelAtPeriodEnd: false,
  cancelRequestedBy: null,
  cancellationReason: null,
  pendingOp: null,
  currentPeriodEnd: "2026-03-01 00:00:00.123+00",
} as const;
const state = {
  cancelComment: null,
  cancellationReason: "cancellation_requested",
  endedAt: new Date("2026-02-10T12:00:00Z"),
  currentPeriodEnd: periodEnd,
};
const scheduledByPayer = {
  ...row,
  cancelAtPeriodEnd: true,
  cancelRequestedBy: "payer",
  cancellationReason: "requested_by_customer",
} as const;

describe("whoEnded", () => {
  it.each([
    ["dashboard cancel, nothing scheduled", row, state, "provider", "cancellation_requested"],
    [
      "dashboard cancel now after the customer scheduled (Stripe kept the scheduling comment)",
      scheduledByPayer,
      { ...state, cancelComment: "kassa:payer" },
      "provider",
      "cancellation_requested",
    ],
    [
      "the customer's scheduled end reached (ended at the period end, rounded to Stripe's second)",
      scheduledByPayer,
      { ...state, cancelComment: "kassa:payer", endedAt: periodEnd },
      "payer",
      "requested_by_customer",
    ],
    [
      "the customer's scheduled end reached on a clock that went past it",
      scheduledByPayer,
      { ...state, cancelComment: "kassa:payer", endedAt: new Date(periodEnd.getTime() + 3_600_000) },
      "payer",
      "requested_by_customer",
    ],
    [
      "the API ends now what the customer scheduled (our cancel under way)",
      { ...scheduledByPayer, pendingOp: "cancel" },
      { ...state, cancelComment: "kassa:api" },
      "api",
      "requested_by_merchant",
    ],
    [
      "retries exhausted outrank a scheduled cancellation",
      scheduledByPayer,
      { ...state, cancelComment: "kassa:payer", cancellationReason: "payment_failed" },
      "provider",
      "payment_failed",
    ],
  ] as const)("%s", (_, subscription, provider, by, reason) => {
    expect(whoEnded(subscription, provider)).toEqual({ by, reason });
  });
});
