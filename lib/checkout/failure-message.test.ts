import { describe, expect, it } from "vitest";
import { en } from "@/lib/i18n/dictionaries/en";
import { failureMessage } from "./failure-message";

describe("failureMessage", () => {
  it.each([
    [null, en.errors.declined],
    ["card_declined", en.errors.declined],
    ["card_declined/generic_decline", en.errors.declined],
    ["card_declined/insufficient_funds", en.errors.insufficientFunds],
    ["expired_card", en.errors.cardExpired],
    ["incorrect_cvc", en.errors.incorrectCvc],
    ["payment_intent_authentication_failure", en.errors.authenticationFailed],
    ["internal_error", en.errors.generic],
    ["provider_unavailable", en.errors.generic],
  ])("%s", (code, expected) => {
    expect(failureMessage(code, en.errors)).toBe(expected);
  });
});
