import type Stripe from "stripe";
import { cardInfo, luhnValid, numberForTestToken } from "../cards";
import { cardError, invalidRequest, resourceMissing, unsupported } from "../errors";
import { emit } from "../events";
import type { Params } from "../form";
import { cardFingerprint, newObjectId } from "../ids";
import { paginate } from "../list";
import { requireCustomer } from "../lookup";
import { listing, retrieving } from "../accepted-params";
import type { Route } from "../router";
import { type Ctx, timeOn } from "../state";

const emptyAddress = (): Stripe.Address => ({
  city: null,
  country: null,
  line1: null,
  line2: null,
  postal_code: null,
  state: null,
});

function billingDetails(params: Params | undefined): Stripe.PaymentMethod.BillingDetails {
  const address = params?.object("address");
  return {
    address: {
      ...emptyAddress(),
      ...(address
        ? {
            city: address.string("city") ?? null,
            country: address.string("country") ?? null,
            line1: address.string("line1") ?? null,
            line2: address.string("line2") ?? null,
            postal_code: address.string("postal_code") ?? null,
            state: address.string("state") ?? null,
          }
        : {}),
    },
    email: params?.string("email") ?? null,
    name: params?.string("name") ?? null,
    phone: params?.string("phone") ?? null,
    tax_id: null,
  };
}

/** Creates a card PaymentMethod from a number, checking it the way Stripe does (402 card_error). */
export function createCardPaymentMethod(
  ctx: Ctx,
  card: { number: string; exp_month: number; exp_year: number; cvc?: string },
  extra: { billing_details?: Stripe.PaymentMethod.BillingDetails; metadata?: Record<string, string> } = {},
): Stripe.PaymentMethod {
  const number = card.number.replace(/[\s-]/g, "");
  if (!luhnValid(number)) {
    throw cardError({
      code: "incorrect_number",
      message: "Your card number is incorrect.",
      param: "card[number]",
    });
  }
  if (card.exp_month < 1 || card.exp_month > 12) {
    throw cardError({
      code: "invalid_expiry_month",
      message: "Your card's expiration month is invalid.",
      param: "card[exp_month]",
    });
  }
  const now = new Date(timeOn(ctx, null) * 1000);
  const year = card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
  const expired =
    year < now.getUTCFullYear() || (year === now.getUTCFullYear() && card.exp_month < now.getUTCMonth() + 1);
  if (expired || year > now.getUTCFullYear() + 50) {
    throw cardError({
      code: "invalid_expiry_year",
      message: "Your card's expiration year is invalid.",
      param: "card[exp_year]",
    });
  }
  const info = cardInfo(number);
  const paymentMethod: Stripe.PaymentMethod = {
    id: newObjectId("pm"),
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: extra.billing_details ?? billingDetails(undefined),
    card: {
      brand: info.brand,
      checks: {
        address_line1_check: null,
        address_postal_code_check: null,
        cvc_check: card.cvc ? "unchecked" : null,
      },
      country: info.country,
      display_brand: info.displayBrand,
      exp_month: card.exp_month,
      exp_year: year,
      fingerprint: cardFingerprint(ctx.account.id, number),
      funding: info.funding,
      generated_from: null,
      last4: number.slice(-4),
      networks: { available: [info.brand], preferred: null },
      regulated_status: "unregulated",
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: timeOn(ctx, null),
    customer: null,
    customer_account: null,
    livemode: false,
    metadata: extra.metadata ?? {},
    type: "card",
  };
  ctx.account.store.insert("payment_method", paymentMethod);
  ctx.account.cards.set(paymentMethod.id, {
    number,
    behavior: info.behavior,
    setUpForOffSession: false,
    consumed: false,
  });
  return paymentMethod;
}

/** A card for a test token (`pm_card_visa`, `tok_visa`): each use makes a new PaymentMethod, as on Stripe. */
function paymentMethodFromTestToken(ctx: Ctx, token: string): Stripe.PaymentMethod | undefined {
  const number = numberForTestToken(token);
  if (!number) return undefined;
  const year = new Date(timeOn(ctx, null) * 1000).getUTCFullYear() + 3;
  return createCardPaymentMethod(ctx, { number, exp_month: 12, exp_year: year });
}

/** A PaymentMethod named by a request parameter: an id of this account or a test token. */
export function paymentMethodFromReference(
  ctx: Ctx,
  reference: string,
  param = "payment_method",
): Stripe.PaymentMethod {
  const existing = ctx.account.store.get("payment_method", reference);
  if (existing) return existing;
  const fromToken = paymentMethodFromTestToken(ctx, reference);
  if (fromToken) return fromToken;
  throw resourceMissing("PaymentMethod", reference, param);
}

export function requirePaymentMethod(ctx: Ctx, id: string, param = "id"): Stripe.PaymentMethod {
  const paymentMethod = ctx.account.store.get("payment_method", id);
  if (!paymentMethod) throw resourceMissing("PaymentMethod", id, param);
  return paymentMethod;
}

export const consumedMessage =
  "The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.";

/**
 * Attaches to a customer. Like Stripe, attaching checks the card with the issuer: cards that
 * decline every charge fail here (402), except 4000000000000341 which attaches and fails later.
 */
export function attachPaymentMethod(ctx: Ctx, paymentMethod: Stripe.PaymentMethod, customerId: string): void {
  const customer = requireCustomer(ctx, customerId, "customer");
  if (paymentMethod.customer === customer.id) return;
  if (paymentMethod.customer) {
    throw invalidRequest("The payment method you provided has already been attached to a customer.", {
      param: "payment_method",
    });
  }
  const card = ctx.account.cards.get(paymentMethod.id);
  if (card?.consumed) throw invalidRequest(consumedMessage, { param: "payment_method" });
  const behavior = card?.behavior;
  if (behavior?.kind === "decline") {
    throw cardError({
      code: behavior.code,
      decline_code: behavior.declineCode,
      message: behavior.message,
      ...(behavior.param ? { param: behavior.param } : {}),
    });
  }
  if (behavior?.kind === "blocked") {
    throw cardError({
      code: "card_declined",
      decline_code: "fraudulent",
      message: "Your card was declined.",
    });
  }
  paymentMethod.customer = customer.id;
  emit(ctx, "payment_method.attached", paymentMethod, { created: timeOn(ctx, null) });
}

function detachPaymentMethod(ctx: Ctx, paymentMethod: Stripe.PaymentMethod): void {
  if (!paymentMethod.customer) {
    throw invalidRequest(
      "The payment method you provided is not attached to a customer so detachment is impossible.",
      {
        param: "payment_method",
      },
    );
  }
  const before = { ...paymentMethod };
  paymentMethod.customer = null;
  const card = ctx.account.cards.get(paymentMethod.id);
  if (card) card.consumed = true;
  emit(ctx, "payment_method.detached", paymentMethod, { created: timeOn(ctx, null), before });
}

/** A card PaymentMethod from `type=card&card[number]=...` (or `card[token]=tok_visa`), also used for `payment_method_data`. */
export function paymentMethodFromParams(ctx: Ctx, params: Params): Stripe.PaymentMethod {
  const type = params.string("type", { required: true });
  if (type !== "card") throw unsupported(`payment method type '${type}' (only 'card')`);
  const card = params.object("card", { required: true });
  const extra = {
    billing_details: billingDetails(params.object("billing_details")),
    metadata: params.metadata("metadata") ?? {},
  };
  const token = card.string("token");
  if (token) {
    const number = numberForTestToken(token);
    if (!number) throw resourceMissing("token", token, card.name("token"));
    const year = new Date(timeOn(ctx, null) * 1000).getUTCFullYear() + 3;
    return createCardPaymentMethod(ctx, { number, exp_month: 12, exp_year: year }, extra);
  }
  return createCardPaymentMethod(
    ctx,
    {
      number: card.string("number", { required: true }),
      exp_month: card.int("exp_month", { required: true }),
      exp_year: card.int("exp_year", { required: true }),
      cvc: card.string("cvc"),
    },
    extra,
  );
}

export const paymentMethodRoutes: Route[] = [
  // POST /v1/payment_methods
  {
    method: "POST",
    path: "/v1/payment_methods",
    stripeParams: "PaymentMethodCreateParams",
    accepts: [
      "expand",
      "type",
      "card[number]",
      "card[exp_month]",
      "card[exp_year]",
      "card[cvc]",
      "card[token]",
      "billing_details[address][city]",
      "billing_details[address][country]",
      "billing_details[address][line1]",
      "billing_details[address][line2]",
      "billing_details[address][postal_code]",
      "billing_details[address][state]",
      "billing_details[email]",
      "billing_details[name]",
      "billing_details[phone]",
      "metadata",
    ],
    handler: ({ ctx, params }) => paymentMethodFromParams(ctx, params),
  },
  // GET /v1/payment_methods/:id
  {
    method: "GET",
    path: "/v1/payment_methods/:id",
    stripeParams: "PaymentMethodRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => paymentMethodFromReference(ctx, path.id, "id"),
  },
  // POST /v1/payment_methods/:id
  {
    method: "POST",
    path: "/v1/payment_methods/:id",
    stripeParams: "PaymentMethodUpdateParams",
    accepts: [
      "expand",
      "metadata",
      "billing_details[address][city]",
      "billing_details[address][country]",
      "billing_details[address][line1]",
      "billing_details[address][line2]",
      "billing_details[address][postal_code]",
      "billing_details[address][state]",
      "billing_details[email]",
      "billing_details[name]",
      "billing_details[phone]",
    ],
    handler: ({ ctx, params, path }) => {
      const paymentMethod = requirePaymentMethod(ctx, path.id);
      const before = structuredClone(paymentMethod);
      const metadata = params.metadata("metadata", paymentMethod.metadata ?? {});
      if (metadata) paymentMethod.metadata = metadata;
      const details = params.object("billing_details");
      if (details) paymentMethod.billing_details = billingDetails(details);
      emit(ctx, "payment_method.updated", paymentMethod, { created: timeOn(ctx, null), before });
      return paymentMethod;
    },
  },
  // POST /v1/payment_methods/:id/attach
  {
    method: "POST",
    path: "/v1/payment_methods/:id/attach",
    stripeParams: "PaymentMethodAttachParams",
    accepts: ["expand", "customer"],
    handler: ({ ctx, params, path }) => {
      const paymentMethod = paymentMethodFromReference(ctx, path.id, "id");
      attachPaymentMethod(ctx, paymentMethod, params.string("customer", { required: true }));
      return paymentMethod;
    },
  },
  // POST /v1/payment_methods/:id/detach
  {
    method: "POST",
    path: "/v1/payment_methods/:id/detach",
    stripeParams: "PaymentMethodDetachParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => {
      const paymentMethod = requirePaymentMethod(ctx, path.id);
      detachPaymentMethod(ctx, paymentMethod);
      return paymentMethod;
    },
  },
  // GET /v1/payment_methods
  {
    method: "GET",
    path: "/v1/payment_methods",
    stripeParams: "PaymentMethodListParams",
    accepts: listing("customer", "type"),
    handler: ({ ctx, params }) => {
      const customer = params.string("customer");
      if (customer) requireCustomer(ctx, customer, "customer");
      const type = params.string("type");
      const all = ctx.account.store
        .all("payment_method")
        .filter((pm) => (customer ? pm.customer === customer : true) && (type ? pm.type === type : true));
      return paginate(all, params, "/v1/payment_methods");
    },
  },
  // GET /v1/customers/:id/payment_methods
  {
    method: "GET",
    path: "/v1/customers/:id/payment_methods",
    stripeParams: "CustomerListPaymentMethodsParams",
    accepts: listing("type"),
    handler: ({ ctx, params, path }) => {
      requireCustomer(ctx, path.id);
      const type = params.string("type");
      const all = ctx.account.store
        .all("payment_method")
        .filter((pm) => pm.customer === path.id && (type ? pm.type === type : true));
      return paginate(all, params, `/v1/customers/${path.id}/payment_methods`);
    },
  },
];
