import { describe, expect, it } from "vitest";
import { defaultFraudSettings, fraudSettingsOf } from "./fraud-settings";
import { combineVerdicts, evaluateRules, riskVerdict, type ScreeningFacts } from "./screen-payment";
import { velocityRulesOf } from "./velocity-rules-of";

const facts: ScreeningFacts = {
  amount: 2500,
  cardFingerprint: "fp_1",
  cardCountry: "US",
  ip: "203.0.113.10",
  ipCountry: "US",
  email: "a@example.com",
};
const once = { card: 1, ip: 1, email: 1 };

describe("fraud rules", () => {
  it("allows an ordinary payment", () => {
    expect(evaluateRules(defaultFraudSettings, facts, once)).toEqual({ decision: "allow", reasons: [] });
  });

  it("reviews above the review amount and declines above the decline amount", () => {
    const settings = { ...defaultFraudSettings, reviewAmountCents: 1000, declineAmountCents: 5000 };
    expect(evaluateRules(settings, facts, once)).toEqual({
      decision: "review",
      reasons: ["amount_over_review_limit"],
    });
    expect(evaluateRules(settings, { ...facts, amount: 5000 }, once)).toEqual({
      decision: "decline",
      reasons: ["amount_over_decline_limit"],
    });
  });

  it("reviews above a velocity limit and declines above twice the limit", () => {
    const settings = { ...defaultFraudSettings, maxAttemptsPerCard: 3 };
    expect(evaluateRules(settings, facts, { ...once, card: 3 }).decision).toBe("allow");
    expect(evaluateRules(settings, facts, { ...once, card: 4 })).toEqual({
      decision: "review",
      reasons: ["card_velocity"],
    });
    expect(evaluateRules(settings, facts, { ...once, card: 7 })).toEqual({
      decision: "decline",
      reasons: ["card_velocity"],
    });
    // Without a fingerprint (redirect methods) the card rule does not apply.
    expect(evaluateRules(settings, { ...facts, cardFingerprint: null }, { ...once, card: 7 }).decision).toBe(
      "allow",
    );
  });

  it("compares the IP's country with the card's when both are known", () => {
    const review = { ...defaultFraudSettings, countryMismatch: "review" as const };
    expect(evaluateRules(review, { ...facts, ipCountry: "GB" }, once)).toEqual({
      decision: "review",
      reasons: ["country_mismatch"],
    });
    expect(evaluateRules(review, { ...facts, ipCountry: null }, once).decision).toBe("allow");
    expect(evaluateRules(defaultFraudSettings, { ...facts, ipCountry: "GB" }, once).decision).toBe("allow");
  });

  it("maps the provider's risk level, and combines verdicts keeping every reason", () => {
    expect(riskVerdict(defaultFraudSettings, "normal").decision).toBe("allow");
    expect(riskVerdict(defaultFraudSettings, "elevated")).toEqual({
      decision: "review",
      reasons: ["risk_elevated"],
    });
    expect(riskVerdict(defaultFraudSettings, "highest")).toEqual({
      decision: "decline",
      reasons: ["risk_highest"],
    });
    expect(
      combineVerdicts(
        { decision: "review", reasons: ["ip_velocity"] },
        { decision: "decline", reasons: ["risk_highest"] },
        null,
      ),
    ).toEqual({ decision: "decline", reasons: ["ip_velocity", "risk_highest"] });
  });

  it("does nothing when disabled, and ignores stored settings that no longer validate", () => {
    const off = { ...defaultFraudSettings, enabled: false, reviewAmountCents: 1 };
    expect(evaluateRules(off, facts, { card: 99, ip: 99, email: 99 }).decision).toBe("allow");
    expect(riskVerdict(off, "highest").decision).toBe("allow");
    expect(fraudSettingsOf({ fraudSettings: { maxAttemptsPerCard: 3 } }).maxAttemptsPerCard).toBe(3);
    expect(fraudSettingsOf({ fraudSettings: { maxAttemptsPerCard: -3 } })).toEqual(defaultFraudSettings);
    expect(fraudSettingsOf({ fraudSettings: null })).toEqual(defaultFraudSettings);
  });

  it("skips a velocity rule that does not apply, however many attempts", () => {
    const many = { card: null, ip: 99, email: null };
    expect(evaluateRules(defaultFraudSettings, facts, many)).toEqual({
      decision: "decline",
      reasons: ["ip_velocity"],
    });
    expect(evaluateRules(defaultFraudSettings, facts, { card: null, ip: null, email: null }).decision).toBe(
      "allow",
    );
  });

  it("applies every velocity rule to a live business, and to a sandbox business only those it set", () => {
    const all = { card: true, ip: true, email: true };
    expect(velocityRulesOf({ mode: "live", fraudSettings: null })).toEqual(all);
    expect(velocityRulesOf({ mode: "live", fraudSettings: { enabled: true } })).toEqual(all);
    expect(velocityRulesOf({ mode: "sandbox", fraudSettings: null })).toEqual({
      card: false,
      ip: false,
      email: false,
    });
    expect(
      velocityRulesOf({
        mode: "sandbox",
        fraudSettings: { reviewAmountCents: 100, velocityWindowSeconds: 60 },
      }),
    ).toEqual({
      card: false,
      ip: false,
      email: false,
    });
    expect(
      velocityRulesOf({ mode: "sandbox", fraudSettings: { maxAttemptsPerCard: 5, maxAttemptsPerEmail: 3 } }),
    ).toEqual({
      card: true,
      ip: false,
      email: true,
    });
  });
});
