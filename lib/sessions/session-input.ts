import { isIP } from "node:net";
import { z } from "zod";

const required = (what: string) => (issue: { input: unknown }) =>
  issue.input === undefined || issue.input === null ? `${what} is required` : undefined;

const cents = (field: string, min: number, max: number) =>
  z
    .number({ error: (i) => required(field)(i) ?? `${field} must be an integer number of cents` })
    .int({ error: `${field} must be an integer number of cents` })
    .min(min, { error: `${field} must be at least ${min}` })
    .max(max, { error: `${field} must be at most ${max}` });

export const maxAmount = 99_999_999;
export const maxItems = 100;

const itemSchema = z.object(
  {
    name: z
      .string({ error: (i) => required("name")(i) ?? "name must be a string" })
      .trim()
      .min(1, { error: "name must not be empty" })
      .max(250, { error: "name must be at most 250 characters" }),
    quantity: z
      .number({ error: (i) => required("quantity")(i) ?? "quantity must be an integer" })
      .int({ error: "quantity must be an integer" })
      .min(1, { error: "quantity must be at least 1" })
      .max(1_000_000, { error: "quantity must be at most 1000000" }),
    price: cents("price", 1, maxAmount),
  },
  { error: "each item must be an object {name, quantity, price}" },
);

const email = z
  .string({ error: "must be a string" })
  .trim()
  .max(255, { error: "must be at most 255 characters" })
  .pipe(z.email({ error: "must be a valid e-mail address" }));

/** Decision 0003: `customer` is a string identifier, or an object {id?, email?, name?, phone?}. */
const customerSchema = z.union(
  [
    z
      .string()
      .trim()
      .min(1, { error: "customer must not be empty" })
      .max(255, { error: "customer must be at most 255 characters" }),
    z
      .object({
        id: z.string().trim().min(1).max(255).optional(),
        email: email.optional(),
        name: z.string().trim().max(255).optional(),
        phone: z.string().trim().max(40).optional(),
      })
      .refine((c) => c.id || c.email, { error: "customer object needs an id or an email" }),
  ],
  { error: (i) => required("customer")(i) ?? "customer must be a string or an object {id, email, name, phone}" },
);

const metadataSchema = z
  .record(z.string().max(40, { error: "metadata keys must be at most 40 characters" }), z.json())
  .refine((m) => Object.keys(m).length <= 50, { error: "metadata may have at most 50 keys" })
  .refine((m) => JSON.stringify(m).length <= 8192, { error: "metadata must be at most 8 KB as JSON" });

export const intervals = ["day", "week", "month", "year"] as const;
/** A period may not exceed 3 years. */
export const maxIntervalCount = { day: 1095, week: 156, month: 36, year: 3 } as const;

const subscriptionSchema = z
  .object(
    {
      interval: z.enum(intervals, {
        error: (i) => required("interval")(i) ?? "interval must be one of day, week, month, year",
      }),
      interval_count: z
        .number({ error: "interval_count must be an integer" })
        .int({ error: "interval_count must be an integer" })
        .min(1, { error: "interval_count must be at least 1" })
        .nullish()
        .transform((v) => v ?? 1),
    },
    { error: "subscription must be an object {interval, interval_count}" },
  )
  .refine((s) => s.interval_count <= maxIntervalCount[s.interval], {
    error: "a period may not exceed 3 years (1095 days, 156 weeks, 36 months, 3 years)",
  });

export const sessionInputSchema = z
  .object({
    amount: cents("amount", 100, maxAmount),
    currency: z
      .string({ error: (i) => required("currency")(i) ?? "currency must be a three-letter code" })
      .regex(/^[A-Za-z]{3}$/, { error: "currency must be a three-letter code" })
      .transform((c) => c.toUpperCase())
      .refine((c) => c === "USD", { error: "only USD is supported" }),
    customer: customerSchema,
    order_id: z
      .string({ error: (i) => required("order_id")(i) ?? "order_id must be a string" })
      .trim()
      .min(1, { error: "order_id must not be empty" })
      .max(200, { error: "order_id must be at most 200 characters" }),
    items: z
      .array(itemSchema, { error: (i) => required("items")(i) ?? "items must be an array" })
      .min(1, { error: "items must have at least one item" })
      .max(maxItems, { error: `items may have at most ${maxItems} entries` }),
    description: z.string({ error: "description must be a string" }).max(1000).nullish(),
    paymentMethodId: z.string({ error: "paymentMethodId must be a string" }).max(100).nullish(),
    ip: z.unknown().optional(),
    metadata: metadataSchema.nullish(),
    email: email.nullish(),
    subscription: subscriptionSchema.nullish(),
  })
  .superRefine((input, ctx) => {
    const sum = input.items.reduce((total, item) => total + item.price * item.quantity, 0);
    if (sum !== input.amount)
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message: `amount (${input.amount}) must equal the sum of price x quantity over items (${sum})`,
      });
  });

export type SessionInput = z.infer<typeof sessionInputSchema>;

/** `ip` is only meaningful with a secret key; then it must be an IPv4 or IPv6 address. */
export function parseRequiredIp(value: unknown): string | null | { error: string } {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value !== "string" || !isIP(value.trim())) return { error: "ip must be a valid IPv4 or IPv6 address" };
  return value.trim();
}
