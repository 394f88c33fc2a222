import type { Business } from "@/db/schema";

/** Which velocity rules (attempts per card, IP, e-mail within the window) screen a payment. */
export type VelocityRules = { card: boolean; ip: boolean; email: boolean };

const limitKeys = {
  card: "maxAttemptsPerCard",
  ip: "maxAttemptsPerIp",
  email: "maxAttemptsPerEmail",
} as const;

/**
 * A live business: all of them. A sandbox business: only those whose limit its fraud settings set
 * explicitly. Stripe's test mode lets its success cards succeed however often they are used, and a
 * merchant's load test pays with 4242 again and again; fraud outcomes in the sandbox come from
 * the review and fraud test cards, and from thresholds a test sets (decision 0008).
 */
export function velocityRulesOf(business: Pick<Business, "mode" | "fraudSettings">): VelocityRules {
  if (business.mode !== "sandbox") return { card: true, ip: true, email: true };
  const set = (key: string) => business.fraudSettings != null && key in business.fraudSettings;
  return { card: set(limitKeys.card), ip: set(limitKeys.ip), email: set(limitKeys.email) };
}
