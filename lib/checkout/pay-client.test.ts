import { describe, expect, it } from "vitest";
import { outcomeOf } from "./pay-client";

describe("outcomeOf", () => {
  it("maps every answer of the pay endpoint", () => {
    const response = { session_id: "cs_1", state: "succeeded", status: "succeeded", amount: 100, currency: "USD", payment_method: "credit", next: null };
    expect(outcomeOf(200, response)).toEqual({ kind: "result", response });
    expect(outcomeOf(409, { error: "session_paid", message: "Already paid" })).toEqual({ kind: "not_payable", code: "session_paid", message: "Already paid" });
    expect(outcomeOf(403, null)).toEqual({ kind: "ip_mismatch" });
    expect(outcomeOf(404, { error: "session_not_found" })).toEqual({ kind: "not_found" });
    expect(outcomeOf(400, { error: "Payment method not found" })).toEqual({ kind: "method_unavailable" });
    expect(outcomeOf(400, { card: ["bad"], customerDetails: ["bad"] })).toEqual({ kind: "invalid", fields: ["card", "customerDetails"] });
    expect(outcomeOf(400, { error: "invalid_json", message: "x" })).toEqual({ kind: "error" });
    expect(outcomeOf(500, { error: "Internal server error" })).toEqual({ kind: "error" });
    expect(outcomeOf(502, null)).toEqual({ kind: "error" });
    // A database fault before anything was charged, and a charge whose outcome is not yet known.
    expect(outcomeOf(503, { error: "service_unavailable", message: "x" })).toEqual({ kind: "unavailable" });
    expect(outcomeOf(503, null)).toEqual({ kind: "unavailable" });
    expect(outcomeOf(503, { error: "payment_outcome_unknown", message: "x" })).toEqual({ kind: "outcome_unknown" });
  });
});
