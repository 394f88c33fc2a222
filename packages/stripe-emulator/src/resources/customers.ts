import type Stripe from "stripe";
import { endSubscription } from "../billing";
import { invalidRequest, resourceMissing } from "../errors";
import { emit, snapshot } from "../events";
import type { Params } from "../form";
import { newObjectId, randomBase62 } from "../ids";
import { paginate } from "../list";
import { requireCustomer } from "../lookup";
import { listing, retrieving } from "../accepted-params";
import type { Route } from "../router";
import { type Ctx, timeOn, timeForCustomer } from "../state";
import { attachPaymentMethod, paymentMethodFromReference } from "./payment-methods";

function readEmail(params: Params): string | null | undefined {
  const email = params.nullableString("email");
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw invalidRequest(`Invalid email address: ${email}`, { param: "email", code: "email_invalid" });
  }
  return email;
}

function readAddress(params: Params): Stripe.Address | null | undefined {
  if (params.raw.address === "") return null;
  const address = params.object("address");
  if (!address) return undefined;
  return {
    city: address.string("city") ?? null,
    country: address.string("country") ?? null,
    line1: address.string("line1") ?? null,
    line2: address.string("line2") ?? null,
    postal_code: address.string("postal_code") ?? null,
    state: address.string("state") ?? null,
  };
}

/** invoice_settings[default_payment_method] must name a card attached to this customer. */
function readDefaultPaymentMethod(ctx: Ctx, params: Params, customerId: string): string | null | undefined {
  const settings = params.object("invoice_settings");
  if (!settings) return undefined;
  const id = settings.nullableString("default_payment_method");
  if (!id) return id;
  const paymentMethod = ctx.account.store.get("payment_method", id);
  if (!paymentMethod || paymentMethod.customer !== customerId) {
    throw invalidRequest(
      `The customer does not have a payment method with the ID ${id}. The payment method must be attached to the customer.`,
      { param: "invoice_settings[default_payment_method]", code: "resource_missing" },
    );
  }
  return id;
}

export const customerRoutes: Route[] = [
  // POST /v1/customers
  {
    method: "POST",
    path: "/v1/customers",
    stripeParams: "CustomerCreateParams",
    accepts: [
      "expand",
      "email",
      "name",
      "phone",
      "description",
      "address",
      "metadata",
      "payment_method",
      "invoice_settings[default_payment_method]",
      "test_clock",
      "balance",
      "preferred_locales",
    ],
    handler: ({ ctx, params }) => {
      const clockId = params.string("test_clock");
      if (clockId && !ctx.account.store.get("test_helpers.test_clock", clockId)) {
        throw resourceMissing("test clock", clockId, "test_clock");
      }
      const customer: Stripe.Customer = {
        id: newObjectId("cus"),
        object: "customer",
        address: readAddress(params) ?? null,
        balance: params.int("balance") ?? 0,
        created: timeOn(ctx, clockId),
        currency: null,
        default_source: null,
        delinquent: false,
        description: params.string("description") ?? null,
        discount: null,
        email: readEmail(params) ?? null,
        invoice_prefix: randomBase62(8).toUpperCase(),
        invoice_settings: {
          custom_fields: null,
          default_payment_method: null,
          footer: null,
          rendering_options: null,
        },
        livemode: false,
        metadata: params.metadata("metadata") ?? {},
        name: params.string("name") ?? null,
        next_invoice_sequence: 1,
        phone: params.string("phone") ?? null,
        preferred_locales: params.strings("preferred_locales") ?? [],
        shipping: null,
        tax_exempt: "none",
        test_clock: clockId ?? null,
      };
      ctx.account.store.insert("customer", customer);
      const paymentMethodId = params.string("payment_method");
      try {
        if (paymentMethodId)
          attachPaymentMethod(ctx, paymentMethodFromReference(ctx, paymentMethodId), customer.id);
        const defaultPaymentMethod = readDefaultPaymentMethod(ctx, params, customer.id);
        if (defaultPaymentMethod) customer.invoice_settings.default_payment_method = defaultPaymentMethod;
      } catch (error) {
        ctx.account.store.remove("customer", customer.id);
        throw error;
      }
      emit(ctx, "customer.created", customer, { created: customer.created });
      return customer;
    },
  },
  // GET /v1/customers/:id
  {
    method: "GET",
    path: "/v1/customers/:id",
    stripeParams: "CustomerRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => {
      if (ctx.account.deleted.has(path.id)) return { id: path.id, object: "customer", deleted: true };
      return requireCustomer(ctx, path.id);
    },
  },
  // POST /v1/customers/:id
  {
    method: "POST",
    path: "/v1/customers/:id",
    stripeParams: "CustomerUpdateParams",
    accepts: [
      "expand",
      "email",
      "name",
      "phone",
      "description",
      "address",
      "metadata",
      "invoice_settings[default_payment_method]",
    ],
    handler: ({ ctx, params, path }) => {
      const customer = requireCustomer(ctx, path.id);
      const before = snapshot(customer);
      const email = readEmail(params);
      if (email !== undefined) customer.email = email;
      for (const key of ["name", "phone", "description"] as const) {
        const value = params.nullableString(key);
        if (value !== undefined) customer[key] = value;
      }
      const address = readAddress(params);
      if (address !== undefined) customer.address = address;
      const metadata = params.metadata("metadata", customer.metadata);
      if (metadata) customer.metadata = metadata;
      const defaultPaymentMethod = readDefaultPaymentMethod(ctx, params, customer.id);
      if (defaultPaymentMethod !== undefined)
        customer.invoice_settings.default_payment_method = defaultPaymentMethod;
      emit(ctx, "customer.updated", customer, { created: timeForCustomer(ctx, customer.id), before });
      return customer;
    },
  },
  // GET /v1/customers
  {
    method: "GET",
    path: "/v1/customers",
    stripeParams: "CustomerListParams",
    accepts: listing("email", "test_clock"),
    handler: ({ ctx, params }) => {
      const email = params.string("email");
      const clock = params.string("test_clock");
      const all = ctx.account.store
        .all("customer")
        .filter(
          (c) =>
            !ctx.account.deleted.has(c.id) &&
            (email ? c.email === email : true) &&
            (clock ? c.test_clock === clock : true),
        );
      return paginate(all, params, "/v1/customers");
    },
  },
  // DELETE /v1/customers/:id (its subscriptions end now, as on Stripe)
  {
    method: "DELETE",
    path: "/v1/customers/:id",
    stripeParams: "CustomerDeleteParams",
    accepts: [],
    handler: ({ ctx, path }) => {
      const customer = requireCustomer(ctx, path.id);
      for (const subscription of ctx.account.store.all("subscription")) {
        if (subscription.customer !== customer.id) continue;
        if (subscription.status === "canceled" || subscription.status === "incomplete_expired") continue;
        subscription.canceled_at = timeForCustomer(ctx, customer.id);
        endSubscription(ctx, subscription, { reason: "cancellation_requested" });
      }
      ctx.account.deleted.add(customer.id);
      emit(ctx, "customer.deleted", customer, { created: timeForCustomer(ctx, customer.id) });
      return { id: customer.id, object: "customer", deleted: true };
    },
  },
];
