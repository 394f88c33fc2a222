/**
 * Stripe's test card numbers and what each one does, as documented at docs.stripe.com/testing
 * and docs.stripe.com/radar/testing.
 */

export type CardBehavior =
  /**
   * Charges succeed; `risk` is the Radar risk level put on the charge's outcome. With
   * `refundFailsLater` (4000000000005126), a refund begins `succeeded` and turns `failed` later;
   * with `refundPendsFirst` (4000000000007726), it begins `pending` and turns `succeeded` later.
   */
  | {
      kind: "succeed";
      risk: "normal" | "elevated";
      refundFailsLater?: true;
      refundPendsFirst?: true;
      /** The charge is disputed right after it succeeds (docs.stripe.com/testing#disputes). */
      dispute?: DisputeSpec;
      /** The issuer sends an early fraud warning for the charge (4000000000005423). */
      earlyFraudWarning?: true;
    }
  /** The issuer declines every charge (and the $0 check made when attaching to a customer). */
  | { kind: "decline"; code: string; declineCode: string; message: string; param?: string }
  /** Attaching to a customer succeeds; every charge is declined (4000000000000341). */
  | { kind: "charge_customer_fail" }
  /** Radar blocks every charge (4100000000000019, and 4000000000004954 under default rules). */
  | { kind: "blocked" }
  /** 3D Secure on every charge; with `unlessSetUp`, off-session charges pass once set up (…3155). */
  | { kind: "authenticate"; unlessSetUp: boolean };

/** The dispute a test card opens: its reason, and whether it is an inquiry (no funds withdrawn yet). */
export interface DisputeSpec {
  reason: "fraudulent" | "product_not_received" | "general" | "noncompliant";
  inquiry: boolean;
  networkReasonCode: string;
  enhancedEligibility?: "visa_compelling_evidence_3" | "visa_compliance";
}

export interface CardInfo {
  brand: string;
  displayBrand: string;
  country: string;
  funding: "credit" | "debit" | "prepaid";
  behavior: CardBehavior;
}

const declined = (declineCode: string, message = "Your card was declined."): CardBehavior => ({
  kind: "decline",
  code: "card_declined",
  declineCode,
  message,
});

const disputed = (dispute: DisputeSpec): { behavior: CardBehavior } => ({
  behavior: { kind: "succeed", risk: "normal", dispute },
});

const special: Record<string, Partial<CardInfo> & { behavior: CardBehavior }> = {
  "4000000000000002": { behavior: declined("generic_decline") },
  "4000000000009995": { behavior: declined("insufficient_funds", "Your card has insufficient funds.") },
  "4000000000009987": { behavior: declined("lost_card") },
  "4000000000009979": { behavior: declined("stolen_card") },
  "4000000000000069": {
    behavior: {
      kind: "decline",
      code: "expired_card",
      declineCode: "expired_card",
      message: "Your card has expired.",
      param: "exp_month",
    },
  },
  "4000000000000127": {
    behavior: {
      kind: "decline",
      code: "incorrect_cvc",
      declineCode: "incorrect_cvc",
      message: "Your card's security code is incorrect.",
      param: "cvc",
    },
  },
  "4000000000000119": {
    behavior: {
      kind: "decline",
      code: "processing_error",
      declineCode: "processing_error",
      message: "An error occurred while processing your card. Try again in a little bit.",
    },
  },
  "4000000000000341": { behavior: { kind: "charge_customer_fail" } },
  "4000002760003184": { behavior: { kind: "authenticate", unlessSetUp: false } },
  "4000000000003220": { behavior: { kind: "authenticate", unlessSetUp: false } },
  "4000002500003155": { behavior: { kind: "authenticate", unlessSetUp: true } },
  "4000000000009235": { behavior: { kind: "succeed", risk: "elevated" } },
  "4000000000005126": { behavior: { kind: "succeed", risk: "normal", refundFailsLater: true } },
  "4000000000007726": { behavior: { kind: "succeed", risk: "normal", refundPendsFirst: true } },
  "4000000000004954": { behavior: { kind: "blocked" } },
  "4000000000000259": disputed({ reason: "fraudulent", inquiry: false, networkReasonCode: "10.4" }),
  "4000000000002685": disputed({ reason: "product_not_received", inquiry: false, networkReasonCode: "13.1" }),
  "4000000000001976": disputed({ reason: "general", inquiry: true, networkReasonCode: "10.4" }),
  "4000000404000079": disputed({
    reason: "fraudulent",
    inquiry: false,
    networkReasonCode: "10.4",
    enhancedEligibility: "visa_compelling_evidence_3",
  }),
  "4000000404000038": disputed({
    reason: "noncompliant",
    inquiry: false,
    networkReasonCode: "00",
    enhancedEligibility: "visa_compliance",
  }),
  "4000000000005423": { behavior: { kind: "succeed", risk: "normal", earlyFraudWarning: true } },
  "4100000000000019": { behavior: { kind: "blocked" } },
  "4000056655665556": { funding: "debit", behavior: { kind: "succeed", risk: "normal" } },
  "5200828282828210": { funding: "debit", behavior: { kind: "succeed", risk: "normal" } },
  "5105105105105100": { funding: "prepaid", behavior: { kind: "succeed", risk: "normal" } },
  "4000000760000002": { country: "BR", behavior: { kind: "succeed", risk: "normal" } },
  "4000001240000000": { country: "CA", behavior: { kind: "succeed", risk: "normal" } },
  "4000004840008001": { country: "MX", behavior: { kind: "succeed", risk: "normal" } },
  "4000002500000003": { country: "FR", behavior: { kind: "succeed", risk: "normal" } },
  "4000002760000016": { country: "DE", behavior: { kind: "succeed", risk: "normal" } },
  "4000008260000000": { country: "GB", behavior: { kind: "succeed", risk: "normal" } },
};

/** Test payment methods (`pm_card_*`) and tokens (`tok_*`) and the card number each stands for. */
export const testPaymentMethodNumbers: Record<string, string> = {
  visa: "4242424242424242",
  visa_debit: "4000056655665556",
  mastercard: "5555555555554444",
  mastercard_debit: "5200828282828210",
  mastercard_prepaid: "5105105105105100",
  amex: "378282246310005",
  discover: "6011111111111117",
  diners: "3056930009020004",
  jcb: "3566002020360505",
  unionpay: "6200000000000005",
  br: "4000000760000002",
  ca: "4000001240000000",
  mx: "4000004840008001",
  visa_chargeDeclined: "4000000000000002",
  chargeDeclined: "4000000000000002",
  visa_chargeDeclinedInsufficientFunds: "4000000000009995",
  chargeDeclinedInsufficientFunds: "4000000000009995",
  visa_chargeDeclinedLostCard: "4000000000009987",
  chargeDeclinedLostCard: "4000000000009987",
  visa_chargeDeclinedStolenCard: "4000000000009979",
  chargeDeclinedStolenCard: "4000000000009979",
  chargeDeclinedExpiredCard: "4000000000000069",
  chargeDeclinedIncorrectCvc: "4000000000000127",
  chargeDeclinedProcessingError: "4000000000000119",
  chargeCustomerFail: "4000000000000341",
  authenticationRequired: "4000002760003184",
  threeDSecure2Required: "4000000000003220",
  authenticationRequiredOnSetup: "4000002500003155",
  riskLevelElevated: "4000000000009235",
  refundFail: "4000000000005126",
  riskLevelHighest: "4000000000004954",
  chargeDeclinedFraudulent: "4100000000000019",
  createDispute: "4000000000000259",
  createDisputeProductNotReceived: "4000000000002685",
  createDisputeInquiry: "4000000000001976",
};

/** `pm_card_visa` → its card number; `tok_visa` likewise. Undefined for anything else. */
export function numberForTestToken(token: string): string | undefined {
  const match = /^(?:pm_card_|tok_)(.+)$/.exec(token);
  return match ? testPaymentMethodNumbers[match[1] ?? ""] : undefined;
}

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let digit = Number(number[i]);
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Brand from the number's prefix, with Stripe's brand names. */
export function brandOf(number: string): { brand: string; displayBrand: string } {
  const two = Number(number.slice(0, 2));
  const four = Number(number.slice(0, 4));
  if (number.startsWith("4")) return { brand: "visa", displayBrand: "visa" };
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720))
    return { brand: "mastercard", displayBrand: "mastercard" };
  if (two === 34 || two === 37) return { brand: "amex", displayBrand: "american_express" };
  if (
    number.startsWith("6011") ||
    two === 65 ||
    (Number(number.slice(0, 3)) >= 644 && Number(number.slice(0, 3)) <= 649)
  )
    return { brand: "discover", displayBrand: "discover" };
  if (two === 35) return { brand: "jcb", displayBrand: "jcb" };
  if (two === 36 || two === 38 || number.startsWith("30")) return { brand: "diners", displayBrand: "diners" };
  if (two === 62) return { brand: "unionpay", displayBrand: "unionpay" };
  return { brand: "unknown", displayBrand: "unknown" };
}

/** What a (Luhn-valid) number is and does; unknown numbers behave like 4242424242424242. */
export function cardInfo(number: string): CardInfo {
  const known = special[number];
  const { brand, displayBrand } = brandOf(number);
  return {
    brand,
    displayBrand,
    country: known?.country ?? "US",
    funding: known?.funding ?? "credit",
    behavior: known?.behavior ?? { kind: "succeed", risk: "normal" },
  };
}

/** Decline codes Stripe does not retry automatically (hard declines). */
export const hardDeclineCodes = new Set([
  "lost_card",
  "stolen_card",
  "pickup_card",
  "incorrect_number",
  "fraudulent",
]);
