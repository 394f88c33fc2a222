import { isIP } from "node:net";
import { z } from "zod";
import type { Metadata } from "@/db/schema";
import { isSafeText, required, safeText } from "@/lib/http/validation";

export { isSafeText };

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
      .refine(isSafeText, safeText)
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
  .refine(isSafeText, safeText)
  .trim()
  .max(255, { error: "must be at most 255 characters" })
  .pipe(z.email({ error: "must be a valid e-mail address" }));

/** Decision 0003: `customer` is a string identifier, or an object {id?, email?, name?, phone?}. */
const customerSchema = z.union(
  [
    z
      .string()
      .refine(isSafeText, safeText)
      .trim()
      .min(1, { error: "customer must not be empty" })
      .max(255, { error: "customer must be at most 255 characters" }),
    z
      .object({
        id: z.string().refine(isSafeText, safeText).trim().min(1).max(255).optional(),
        email: email.optional(),
        name: z.string().refine(isSafeText, safeText).trim().max(255).optional(),
        phone: z.string().refine(isSafeText, safeText).trim().max(40).optional(),
      })
      .refine((c) => c.id || c.email, { error: "customer object needs an id or an email" }),
  ],
  {
    error: (i) =>
      required("customer")(i) ?? "customer must be a string or an object {id, email, name, phone}",
  },
);

export const maxMetadataKeys = 50;
export const maxMetadataDepth = 5;
export const maxMetadataBytes = 8192;

/**
 * Why `metadata` is unacceptable, or null. Walks the value without recursion (a 256 KB body can
 * nest JSON far deeper than the call stack), so any input gets an answer.
 */
export function metadataProblem(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "metadata must be an object of key-value pairs";
  const keys = Object.keys(value);
  if (keys.length > maxMetadataKeys) return `metadata may have at most ${maxMetadataKeys} keys`;
  if (keys.some((k) => k.length > 40)) return "metadata keys must be at most 40 characters";
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length) {
    const { value: v, depth } = stack.pop()!;
    if (typeof v === "string") {
      if (!isSafeText(v)) return "metadata must not contain NUL characters or unpaired surrogates";
    } else if (typeof v === "object" && v !== null) {
      if (depth > maxMetadataDepth) return `metadata may nest at most ${maxMetadataDepth} levels`;
      const entries = Array.isArray(v) ? v.map((item) => ["", item] as const) : Object.entries(v);
      for (const [k, item] of entries) {
        if (!isSafeText(k)) return "metadata must not contain NUL characters or unpaired surrogates";
        stack.push({ value: item, depth: depth + 1 });
      }
    }
  }
  if (Buffer.byteLength(JSON.stringify(value)) > maxMetadataBytes)
    return "metadata must be at most 8 KB as JSON";
  return null;
}

// The body comes from JSON.parse, so every value is already JSON; only shape and size are checked.
const metadataSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    if (value === undefined || value === null) return;
    const problem = metadataProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .transform((value) => (value ?? null) as Metadata | null)
  .optional()
  .meta({
    // The checks above are code, not a shape the generator can read: the document states them.
    type: ["object", "null"],
    // Any JSON value under each key (generators would otherwise type it as an empty object).
    additionalProperties: {},
    description: `Free key-value pairs, returned in webhooks (renewals included): at most ${maxMetadataKeys} keys of at most 40 characters, ${maxMetadataDepth} levels, ${maxMetadataBytes} bytes as JSON.`,
  });

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
      .refine(isSafeText, safeText)
      .trim()
      .min(1, { error: "order_id must not be empty" })
      .max(200, { error: "order_id must be at most 200 characters" }),
    items: z
      .array(itemSchema, { error: (i) => required("items")(i) ?? "items must be an array" })
      .min(1, { error: "items must have at least one item" })
      .max(maxItems, { error: `items may have at most ${maxItems} entries` }),
    description: z
      .string({ error: "description must be a string" })
      .refine(isSafeText, safeText)
      .max(1000, { error: "description must be at most 1000 characters" })
      .nullish(),
    // Any string: an unknown one is the interface's "Payment method not found", not a field error.
    paymentMethodId: z.string({ error: "paymentMethodId must be a string" }).refine(isSafeText, safeText).nullish(),
    ip: z
      .unknown()
      .optional()
      .meta({
        type: ["string", "null"],
        description:
          "Secret key only: the payer's IPv4 or IPv6 address, checked when they pay. With a public key the client IP is captured.",
      }),
    metadata: metadataSchema,
    email: email.nullish(),
    is_company: z
      .boolean({ error: "is_company must be true or false" })
      .nullish()
      .meta({
        description:
          "Kassa's addition: the payer is a business, charged the company fees GET /payments/methods lists with `is_company=true`. Default false.",
      }),
    subscription: subscriptionSchema.nullish(),
  })
  .refine((input) => input.amount === itemsTotal(input.items), {
    path: ["amount"],
    // Only meaningful on an object whose amount and items are themselves valid (a non-object
    // input fails at the root, path []: the check must not run on it).
    when: (payload) =>
      !payload.issues.some(
        (issue) => !issue.path?.length || issue.path[0] === "amount" || issue.path[0] === "items",
      ),
    error: (issue) => {
      const input = issue.input as { amount: number; items: { price: number; quantity: number }[] };
      return `amount (${input.amount}) must equal the sum of price x quantity over items (${itemsTotal(input.items)})`;
    },
  });

function itemsTotal(items: { price: number; quantity: number }[]): number {
  return items.reduce((total, item) => total + item.price * item.quantity, 0);
}

export type SessionInput = z.infer<typeof sessionInputSchema>;

/** `ip` is only meaningful with a secret key; then it must be an IPv4 or IPv6 address. */
export function parseRequiredIp(value: unknown): string | null | { error: string } {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value !== "string" || !isIP(value.trim()))
    return { error: "ip must be a valid IPv4 or IPv6 address" };
  return value.trim();
}
