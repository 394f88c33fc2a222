import type Stripe from "stripe";
import { invalidRequest } from "../errors";
import { emit, snapshot } from "../events";
import type { Params } from "../form";
import { newObjectId } from "../ids";
import { paginate } from "../list";
import { requireObject } from "../lookup";
import { listing, retrieving } from "../accepted-params";
import type { Route } from "../router";
import { type Ctx, timeOn } from "../state";

/** Decimal fields travel as strings; the SDK turns them into its Decimal type on reading. */
export const decimal = (value: number) => String(value) as unknown as Stripe.Decimal;

const intervals = ["day", "week", "month", "year"] as const;
export type Interval = (typeof intervals)[number];

/** Stripe's limit on a recurring price: at most three years between charges. */
const maxIntervalCount: Record<Interval, number> = { day: 1095, week: 156, month: 36, year: 3 };

export function createProduct(ctx: Ctx, params: Params): Stripe.Product {
  const created = timeOn(ctx, null);
  const id = params.string("id") ?? newObjectId("prod");
  if (ctx.account.store.find(id)) {
    throw invalidRequest(`Product already exists.`, { param: "id", code: "resource_already_exists" });
  }
  const product: Stripe.Product = {
    id,
    object: "product",
    active: params.bool("active") ?? true,
    created,
    default_price: null,
    description: params.string("description") ?? null,
    images: params.strings("images") ?? [],
    livemode: false,
    marketing_features: [],
    metadata: params.metadata("metadata") ?? {},
    name: params.string("name", { required: true }),
    package_dimensions: null,
    shippable: null,
    statement_descriptor: params.string("statement_descriptor") ?? null,
    tax_code: null,
    tax_details: null,
    type: "service",
    unit_label: null,
    updated: created,
    url: null,
  };
  ctx.account.store.insert("product", product);
  emit(ctx, "product.created", product, { created });
  return product;
}

/** `recurring[interval]`, `recurring[interval_count]`, validated against Stripe's 3-year limit. */
export function readRecurring(recurring: Params): { interval: Interval; interval_count: number } {
  const interval = recurring.oneOf("interval", intervals, { required: true });
  const count = recurring.int("interval_count", { min: 1 }) ?? 1;
  if (count > maxIntervalCount[interval]) {
    throw invalidRequest(
      "The maximum billing frequency is three years (3 years, 36 months, 156 weeks, or 1095 days).",
      {
        param: recurring.name("interval_count"),
      },
    );
  }
  return { interval, interval_count: count };
}

/** A Price; `active: false` for the inline prices made from `price_data`, as Stripe does. */
export function createPrice(
  ctx: Ctx,
  fields: {
    currency: string;
    unitAmount: number;
    product: string;
    recurring: { interval: Interval; interval_count: number } | null;
    active?: boolean;
    nickname?: string | null;
    metadata?: Record<string, string>;
    lookupKey?: string | null;
  },
): Stripe.Price {
  const created = timeOn(ctx, null);
  const price: Stripe.Price = {
    id: newObjectId("price"),
    object: "price",
    active: fields.active ?? true,
    billing_scheme: "per_unit",
    created,
    currency: fields.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: fields.lookupKey ?? null,
    metadata: fields.metadata ?? {},
    nickname: fields.nickname ?? null,
    product: fields.product,
    recurring: fields.recurring
      ? { ...fields.recurring, meter: null, trial_period_days: null, usage_type: "licensed" }
      : null,
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: fields.recurring ? "recurring" : "one_time",
    unit_amount: fields.unitAmount,
    unit_amount_decimal: decimal(fields.unitAmount),
  };
  ctx.account.store.insert("price", price);
  emit(ctx, "price.created", price, { created });
  return price;
}

export function readCurrency(params: Params, key = "currency"): string {
  const currency = params.string(key, { required: true }).toLowerCase();
  if (!/^[a-z]{3}$/.test(currency))
    throw invalidRequest(`Invalid currency: ${currency}.`, { param: params.name(key) });
  return currency;
}

export const productRoutes: Route[] = [
  // POST /v1/products
  {
    method: "POST",
    path: "/v1/products",
    stripeParams: "ProductCreateParams",
    accepts: ["expand", "id", "active", "description", "images", "metadata", "name", "statement_descriptor"],
    handler: ({ ctx, params }) => createProduct(ctx, params),
  },
  // GET /v1/products/:id
  {
    method: "GET",
    path: "/v1/products/:id",
    stripeParams: "ProductRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => requireObject(ctx, "product", path.id),
  },
  // POST /v1/products/:id
  {
    method: "POST",
    path: "/v1/products/:id",
    stripeParams: "ProductUpdateParams",
    accepts: ["expand", "name", "description", "active", "metadata"],
    handler: ({ ctx, params, path }) => {
      const product = requireObject(ctx, "product", path.id);
      const before = snapshot(product);
      const name = params.string("name");
      if (name) product.name = name;
      const description = params.nullableString("description");
      if (description !== undefined) product.description = description;
      const active = params.bool("active");
      if (active !== undefined) product.active = active;
      const metadata = params.metadata("metadata", product.metadata);
      if (metadata) product.metadata = metadata;
      product.updated = timeOn(ctx, null);
      emit(ctx, "product.updated", product, { created: product.updated, before });
      return product;
    },
  },
  // GET /v1/products
  {
    method: "GET",
    path: "/v1/products",
    stripeParams: "ProductListParams",
    accepts: listing("active"),
    handler: ({ ctx, params }) => {
      const active = params.bool("active");
      const all = ctx.account.store
        .all("product")
        .filter((p) => (active === undefined ? true : p.active === active));
      return paginate(all, params, "/v1/products");
    },
  },
  // POST /v1/prices
  {
    method: "POST",
    path: "/v1/prices",
    stripeParams: "PriceCreateParams",
    accepts: [
      "expand",
      "product",
      "product_data[name]",
      "product_data[active]",
      "product_data[id]",
      "product_data[metadata]",
      "product_data[statement_descriptor]",
      "recurring[interval]",
      "recurring[interval_count]",
      "currency",
      "unit_amount",
      "active",
      "nickname",
      "metadata",
      "lookup_key",
    ],
    handler: ({ ctx, params }) => {
      const currency = readCurrency(params);
      const productData = params.object("product_data");
      let product = params.string("product");
      if (product) requireObject(ctx, "product", product, "product");
      else if (productData) product = createProduct(ctx, productData).id;
      else
        throw invalidRequest("Missing required param: product.", {
          param: "product",
          code: "parameter_missing",
        });
      const recurring = params.object("recurring");
      return createPrice(ctx, {
        currency,
        unitAmount: params.int("unit_amount", { required: true, min: 0 }),
        product,
        recurring: recurring ? readRecurring(recurring) : null,
        active: params.bool("active") ?? true,
        nickname: params.string("nickname") ?? null,
        metadata: params.metadata("metadata") ?? {},
        lookupKey: params.string("lookup_key") ?? null,
      });
    },
  },
  // GET /v1/prices/:id
  {
    method: "GET",
    path: "/v1/prices/:id",
    stripeParams: "PriceRetrieveParams",
    accepts: retrieving,
    handler: ({ ctx, path }) => requireObject(ctx, "price", path.id),
  },
  // GET /v1/prices
  {
    method: "GET",
    path: "/v1/prices",
    stripeParams: "PriceListParams",
    accepts: listing("product", "active"),
    handler: ({ ctx, params }) => {
      const product = params.string("product");
      const active = params.bool("active");
      const all = ctx.account.store
        .all("price")
        .filter(
          (p) =>
            (product ? p.product === product : true) && (active === undefined ? true : p.active === active),
        );
      return paginate(all, params, "/v1/prices");
    },
  },
];
