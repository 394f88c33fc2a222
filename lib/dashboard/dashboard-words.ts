import { formatMoney } from "@/lib/money";

// The API speaks to programs: amounts in cents and fields by their names ("amount must be at
// least 100", "customer_details.email must be …"). The dashboard speaks to people: every message
// a dashboard or support-console write answers passes through here (staffAction's boundary), so
// amounts read in dollars and fields in words. The field keys of a result are left alone: forms
// find their inputs' messages by them.

/** Fields whose numbers are cents, by the name the API or a dashboard form gives them. */
const moneyFields = new Set([
  "amount",
  "price",
  "threshold",
  "review_amount",
  "decline_amount",
  "screening_fee",
  "reviewAmountCents",
  "declineAmountCents",
  "screeningFeeCents",
  "refunded_amount",
  "net_amount",
]);

/** Field names as people read them; a name not listed loses its underscores ("max_uses" → "max uses"). */
const fieldWords: Record<string, string> = {
  amount: "amount",
  price: "price",
  "customer_details.email": "customer's e-mail",
  "customer_details.name": "customer's name",
  "customer_details.phone": "customer's phone",
  customer_details: "customer's details",
  canceled_by: "who canceled",
  cancel_requested_by: "who asked to cancel",
  cancel_at_period_end: "cancel at the period's end",
  reviewAmountCents: "review amount",
  declineAmountCents: "decline amount",
  screeningFeeCents: "screening fee",
  velocityWindowSeconds: "velocity window",
  maxAttemptsPerCard: "attempts per card",
  maxAttemptsPerIp: "attempts per IP address",
  maxAttemptsPerEmail: "attempts per e-mail",
  url: "URL",
  email: "e-mail",
  max_uses: "limit of uses",
  expires_at: "expiry date",
  adjustable_quantity: "quantity range",
  metadata: "metadata",
  items: "items",
  webhook_url: "webhook URL",
  return_url: "return URL",
  order_id: "order id",
  session_id: "payment",
};

const dollars = (cents: string) => formatMoney(Number(cents), "USD", "en-US");

/** A field name as words: the listed wording, else its parts without underscores, dots or indexes. */
export function fieldInWords(name: string): string {
  const bare = name.replace(/\[\d+\]/g, "");
  if (fieldWords[bare]) return fieldWords[bare];
  const last = bare.split(".").at(-1) ?? bare;
  if (fieldWords[last]) return fieldWords[last];
  return last
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase();
}

// A field path the API puts at the start of a message: `amount`, `items[0].price`, `customer_details.email`.
const fieldPath = String.raw`[A-Za-z][A-Za-z0-9_]*(?:\[\d+\])*(?:\.[A-Za-z][A-Za-z0-9_]*(?:\[\d+\])*)*`;

/** Amounts said in cents, in any message: "1605 cents", "between 1 and 500000 cents", "at least 1 (cents)". */
function centsToDollars(message: string): string {
  return message
    .replace(/\ban integer number of cents between (\d+) and (\d+)/g, (_m, a: string, b: string) => `an amount from ${dollars(a)} to ${dollars(b)}`)
    .replace(/\ba positive integer \(cents\)/g, `more than ${dollars("0")}`)
    .replace(/\ban integer number of cents\b/g, "an amount in dollars and cents, like 12.50")
    .replace(/\b(\d+) \(cents\)/g, (_m, n: string) => dollars(n))
    .replace(/\b(\d+) cents\b/g, (_m, n: string) => dollars(n))
    .replace(/\bthe payment is (\d+) and (\d+) is already refunded/g, (_m, a: string, b: string) => `the payment is ${dollars(a)} and ${dollars(b)} is already refunded`);
}

/** "<money field> must be at least 100" and the like: the bound in dollars. */
function moneyBounds(message: string): string {
  const bound = new RegExp(String.raw`(^|[;:] ?)(${fieldPath}) (must be (?:at least|at most|more than|less than|from)) (\d+)(?![\d.,])`, "g");
  return message.replace(bound, (whole, lead: string, field: string, verb: string, n: string) => {
    const last = field.replace(/\[\d+\]/g, "").split(".").at(-1) ?? field;
    return moneyFields.has(last) ? `${lead}${field} ${verb} ${dollars(n)}` : whole;
  });
}

/** A message's leading field path (and one after each "; " or ": ") in words: "The customer's e-mail must …". */
function subjectsInWords(message: string): string {
  const subject = new RegExp(String.raw`(^|; |: )(${fieldPath})(?= (?:must|may|is|are|has|have|was|names|should)\b)`, "g");
  return message.replace(subject, (whole, lead: string, field: string) => {
    // Plain words stay ("The amount", "business"): only API names change (with _ . [ ], camelCase, or listed).
    const apiName = /[_.[\]]/.test(field) || /^[a-z]+[A-Z]/.test(field) || Boolean(fieldWords[field]) || moneyFields.has(field);
    if (!apiName) return whole;
    const words = fieldInWords(field);
    return `${lead}${lead === "" || lead === "; " ? "The " : "the "}${words}`;
  });
}

/** An indexed inner path at the start of a message ("[0].price: price must …"): the item, in words. */
function innerPathInWords(message: string): string {
  return message.replace(/^\[(\d+)\]\.([A-Za-z_.]+): /, (_m, i: string, field: string) => `Item ${Number(i) + 1}, ${fieldInWords(field)}: `);
}

/** One message of the API, as the dashboard says it: dollars, not cents; fields in words. */
export function dashboardMessage(message: string): string {
  return subjectsInWords(moneyBounds(centsToDollars(innerPathInWords(message))));
}

/** A field map's messages in the dashboard's words (the keys stay: forms find their inputs by them). */
export function dashboardFields(fields: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(fields).map(([key, messages]) => [key, messages.map(dashboardMessage)]));
}
