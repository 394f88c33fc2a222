import { describe, expect, it } from "vitest";
import { messagesFor } from "@/lib/i18n";
import { checkoutMessages } from "./checkout-messages";
import type { PayOutcome, PayResponse } from "./pay-client";
import { payStep } from "./pay-step";

const messages = checkoutMessages(messagesFor("en"));
const errors = messages.errors;
const response = (over: Partial<PayResponse>): PayResponse => ({
  session_id: "cs_1",
  state: "succeeded",
  status: "succeeded",
  amount: 2500,
  currency: "USD",
  payment_method: "credit",
  failure_code: null,
  next: null,
  ...over,
});

describe("payStep", () => {
  it("leaves for a redirect method's page or a 3-D Secure challenge, saying where", () => {
    const redirect = payStep({ kind: "result", response: response({ state: "processing", next: { type: "redirect", url: "https://pay.example/x" } }) }, messages, "Bitcoin");
    expect(redirect).toEqual({ kind: "navigate", url: "https://pay.example/x", busy: "Taking you to Bitcoin…" });
    const challenge = payStep({ kind: "result", response: response({ state: "processing", next: { type: "authenticate", challengeUrl: "/challenge/1" } }) }, messages, "Card");
    expect(challenge).toEqual({ kind: "navigate", url: "/challenge/1", busy: messages.pay.authenticating });
  });

  it("shows a settled attempt's state without its next step, and a failed one as the provider's reason", () => {
    const paid = response({});
    const { next: _next, ...status } = paid;
    expect(payStep({ kind: "result", response: paid }, messages, "Card")).toEqual({ kind: "status", status });
    const failed = response({ state: "failed", status: "failed", failure_code: "card_declined/insufficient_funds" });
    expect(payStep({ kind: "result", response: failed }, messages, "Card")).toEqual({ kind: "alert", text: errors.insufficientFunds });
  });

  it("maps every other answer to its message, re-reading the state where the session moved on", () => {
    const table: [PayOutcome, ReturnType<typeof payStep>][] = [
      [{ kind: "not_payable", code: "session_paid", message: "" }, { kind: "alert", text: errors.generic, reread: "before" }],
      [{ kind: "ip_mismatch" }, { kind: "alert", text: errors.ipMismatch }],
      [{ kind: "method_unavailable" }, { kind: "alert", text: errors.methodUnavailable }],
      [{ kind: "invalid", fields: ["card", "customerDetails"] }, { kind: "alert", text: "Some details were not accepted: card, customerDetails." }],
      [{ kind: "network" }, { kind: "alert", text: errors.network }],
      [{ kind: "unavailable" }, { kind: "alert", text: errors.unavailable }],
      // The card may have been charged: never "declined", and the state is read again after.
      [{ kind: "outcome_unknown" }, { kind: "alert", text: errors.outcomeUnknown, reread: "after" }],
      [{ kind: "not_found" }, { kind: "alert", text: errors.generic }],
      [{ kind: "error" }, { kind: "alert", text: errors.generic }],
    ];
    for (const [outcome, step] of table) expect(payStep(outcome, messages, "Card"), outcome.kind).toEqual(step);
  });
});
