import { boolean, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { businesses } from "./businesses";
import { createdAt, tsCol } from "./columns";

/** The catalogue of methods Kassa knows; ids are `{provider}_{method}`. */
export const paymentMethods = pgTable("payment_methods", {
  id: text("id").primaryKey(),
  provider: text("provider").notNull(),
  method: text("method").notNull(),
  name: text("name").notNull(),
  image: text("image").notNull(),
  countries: text("countries").array(),
  currencies: text("currencies").array(),
  /** Fixed fee in cents. */
  staticFeeCents: integer("static_fee_cents").notNull(),
  /** Percent fee in parts per million (29000 = 2.9%). */
  percentFeePpm: integer("percent_fee_ppm").notNull(),
  /** Fees for business customers (`is_company`); null means the same as above. */
  companyStaticFeeCents: integer("company_static_fee_cents"),
  companyPercentFeePpm: integer("company_percent_fee_ppm"),
  supportsSubscriptions: boolean("supports_subscriptions").notNull().default(false),
  redirect: boolean("redirect").notNull().default(false),
  sortOrder: integer("sort_order").notNull().default(0),
});

/** A business's configuration of one provider (credentials come with the provider issues). */
export const businessProviders = pgTable(
  "business_providers",
  {
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    provider: text("provider").notNull(),
    active: boolean("active").notNull().default(false),
    configEnc: text("config_enc"),
    /**
     * Last passed subscription setup check (the business's endpoint at the provider), kept up to
     * an hour so session creation need not ask Stripe each time; cleared when Stripe is connected.
     */
    setupCheckedAt: tsCol("setup_checked_at"),
    /** `passed`, or `skipped` when the key may not read endpoints. */
    setupCheck: text("setup_check"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.provider] })],
);

export const businessPaymentMethods = pgTable(
  "business_payment_methods",
  {
    businessId: text("business_id")
      .notNull()
      .references(() => businesses.id),
    methodId: text("method_id")
      .notNull()
      .references(() => paymentMethods.id),
    enabled: boolean("enabled").notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.methodId] })],
);

export type PaymentMethod = typeof paymentMethods.$inferSelect;
