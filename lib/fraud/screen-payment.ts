import { and, count, eq, gte, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { paymentAttempts, type Business, type FraudVerdict } from "@/db/schema";
import { fraudSettingsOf, type FraudSettings } from "./fraud-settings";
import { velocityRulesOf } from "./velocity-rules-of";

export type FraudDecision = FraudVerdict["decision"];

/** What is known about a payment before it is charged. */
export type ScreeningFacts = {
  /** Gross cents. */
  amount: number;
  cardFingerprint: string | null;
  cardCountry: string | null;
  ip: string | null;
  ipCountry: string | null;
  email: string | null;
};

/**
 * Attempts of the business within the window with the same card, IP and e-mail (this one
 * included); null where that velocity rule does not apply (velocityRulesOf).
 */
export type VelocityCounts = { card: number | null; ip: number | null; email: number | null };

const severity: Record<FraudDecision, number> = { allow: 0, review: 1, decline: 2 };

export const allowVerdict: FraudVerdict = { decision: "allow", reasons: [] };

/** The stricter decision, with the reasons of everything that was not `allow`. */
export function combineVerdicts(...verdicts: (FraudVerdict | null | undefined)[]): FraudVerdict {
  let decision: FraudDecision = "allow";
  const reasons: string[] = [];
  for (const verdict of verdicts) {
    if (!verdict) continue;
    if (severity[verdict.decision] > severity[decision]) decision = verdict.decision;
    for (const reason of verdict.reasons) if (!reasons.includes(reason)) reasons.push(reason);
  }
  return { decision, reasons };
}

function velocity(rule: string, seen: number | null, limit: number): FraudVerdict | null {
  if (seen === null) return null;
  if (seen > 2 * limit) return { decision: "decline", reasons: [rule] };
  if (seen > limit) return { decision: "review", reasons: [rule] };
  return null;
}

/** The rules engine: amount, velocity per card / IP / e-mail, IP country against card country. */
export function evaluateRules(
  settings: FraudSettings,
  facts: ScreeningFacts,
  counts: VelocityCounts,
): FraudVerdict {
  if (!settings.enabled) return allowVerdict;
  const verdicts: (FraudVerdict | null)[] = [];
  if (settings.declineAmountCents !== null && facts.amount >= settings.declineAmountCents)
    verdicts.push({ decision: "decline", reasons: ["amount_over_decline_limit"] });
  else if (settings.reviewAmountCents !== null && facts.amount >= settings.reviewAmountCents)
    verdicts.push({ decision: "review", reasons: ["amount_over_review_limit"] });
  if (facts.cardFingerprint)
    verdicts.push(velocity("card_velocity", counts.card, settings.maxAttemptsPerCard));
  if (facts.ip) verdicts.push(velocity("ip_velocity", counts.ip, settings.maxAttemptsPerIp));
  if (facts.email) verdicts.push(velocity("email_velocity", counts.email, settings.maxAttemptsPerEmail));
  if (
    facts.cardCountry &&
    facts.ipCountry &&
    facts.cardCountry.toUpperCase() !== facts.ipCountry.toUpperCase()
  )
    verdicts.push({
      decision: settings.countryMismatch,
      reasons: settings.countryMismatch === "allow" ? [] : ["country_mismatch"],
    });
  return combineVerdicts(...verdicts);
}

/** The provider's own risk signal (Stripe Radar's `outcome.risk_level`), known once charged. */
export function riskVerdict(settings: FraudSettings, riskLevel: string | null): FraudVerdict {
  if (!settings.enabled || !riskLevel) return allowVerdict;
  if (riskLevel === "highest")
    return {
      decision: settings.highestRisk,
      reasons: settings.highestRisk === "allow" ? [] : ["risk_highest"],
    };
  if (riskLevel === "elevated")
    return {
      decision: settings.elevatedRisk,
      reasons: settings.elevatedRisk === "allow" ? [] : ["risk_elevated"],
    };
  return allowVerdict;
}

async function countAttempts(
  db: Db,
  businessId: string,
  attemptId: string,
  windowSeconds: number,
  match: SQL,
) {
  const [row] = await db
    .select({ n: count() })
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.businessId, businessId),
        ne(paymentAttempts.id, attemptId),
        gte(paymentAttempts.createdAt, sql`now() - ${windowSeconds}::float8 * interval '1 second'`),
        match,
      ),
    );
  return (row?.n ?? 0) + 1;
}

/**
 * Screens a first payment before it is charged (renewals are never screened): the business's
 * recent attempts (failed ones too: card testing looks like many declines) give the velocities.
 */
export async function screenPayment(
  db: Db,
  business: Pick<Business, "id" | "mode" | "fraudSettings">,
  attemptId: string,
  facts: ScreeningFacts,
): Promise<FraudVerdict> {
  const settings = fraudSettingsOf(business);
  if (!settings.enabled) return allowVerdict;
  const window = settings.velocityWindowSeconds;
  const rules = velocityRulesOf(business);
  const [card, ip, email] = await Promise.all([
    !rules.card
      ? null
      : facts.cardFingerprint
        ? countAttempts(
            db,
            business.id,
            attemptId,
            window,
            eq(paymentAttempts.cardFingerprint, facts.cardFingerprint),
          )
        : 0,
    !rules.ip
      ? null
      : facts.ip
        ? countAttempts(db, business.id, attemptId, window, eq(paymentAttempts.ip, facts.ip))
        : 0,
    !rules.email
      ? null
      : facts.email
        ? countAttempts(
            db,
            business.id,
            attemptId,
            window,
            sql`lower(${paymentAttempts.email}) = ${facts.email.toLowerCase()}`,
          )
        : 0,
  ]);
  return evaluateRules(settings, facts, { card, ip, email });
}
