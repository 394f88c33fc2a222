import { z } from "zod";
import type { AdjustableQuantity, Metadata, SessionItem } from "@/db/schema";
import type { ApiCaller } from "@/lib/auth/api-keys";
import type { Db } from "@/db/client";
import { ValidationError } from "@/lib/errors";
import { instantField } from "@/lib/http/instant-param";
import { isSafeText, parseOrThrow, safeText } from "@/lib/http/validation";
import { prepareSession } from "@/lib/sessions/create-session";
import { maxAmount, sessionInputSchema } from "@/lib/sessions/session-input";

export const maxQuantity = 1_000_000;

const quantity = (field: string) =>
  z
    .number({ error: `${field} must be an integer` })
    .int({ error: `${field} must be an integer` })
    .min(1, { error: `${field} must be at least 1` })
    .max(maxQuantity, { error: `${field} must be at most ${maxQuantity}` });

/** The fields a link adds to a session's (which are checked by POST /session's own schema). */
export const linkExtrasSchema = z.object({
  adjustable_quantity: z
    .object(
      { minimum: quantity("minimum").optional(), maximum: quantity("maximum") },
      { error: "adjustable_quantity must be an object {minimum, maximum}" },
    )
    .refine((q) => (q.minimum ?? 1) <= q.maximum, { error: "minimum must not exceed maximum" })
    .nullish()
    .meta({
      description:
        "The payer may choose the quantity of the link's only item within these bounds (`minimum` default 1) with `?quantity=` on the link's URL. Not with a plan.",
    }),
  max_uses: z
    .number({ error: "max_uses must be an integer" })
    .int({ error: "max_uses must be an integer" })
    .min(1, { error: "max_uses must be at least 1" })
    .max(maxQuantity, { error: `max_uses must be at most ${maxQuantity}` })
    .nullish()
    .meta({ description: "How many sessions the link makes at most (each visit that makes one counts)." }),
  expires_at: instantField("expires_at", "expires_at must be an ISO 8601 date-time, e.g. 2027-01-31T23:59:59Z")
    .nullish()
    .meta({ description: "After it (the business's clock), the link makes no more sessions." }),
  order_prefix: z
    .string({ error: "order_prefix must be a string" })
    .refine(isSafeText, safeText)
    .regex(/^[A-Za-z0-9_.:]{1,64}$/, {
      error: "order_prefix must be 1 to 64 letters, digits, `_`, `.` or `:`",
    })
    .nullish()
    .meta({
      description:
        "Order ids of the link's sessions are `{order_prefix}-{n}` (n = 1, 2, …); default `PL_{slug}`. Unique per business.",
    }),
});

/** POST /payment-links' body, as the OpenAPI document shows it (checked by the schemas above). */
export type LinkInput = {
  amount: number;
  currency: string;
  items: SessionItem[];
  description: string | null;
  metadata: Metadata;
  subscription: { interval: "day" | "week" | "month" | "year"; interval_count: number } | null;
  adjustableQuantity: Required<AdjustableQuantity> | null;
  maxUses: number | null;
  expiresAt: string | null;
  orderPrefix: string | null;
};

/** The session-shaped part of a link's body, as POST /session would receive it. */
export function sessionBodyOf(body: Record<string, unknown>, orderId: string, items = body.items, amount = body.amount) {
  return {
    amount,
    currency: body.currency,
    items,
    description: body.description,
    metadata: body.metadata,
    subscription: body.subscription,
    customer: "payment_link",
    order_id: orderId,
  };
}

function fieldsOf(error: unknown): Record<string, string[]> {
  if (error instanceof ValidationError) return error.fields;
  throw error;
}

/**
 * Checks a link's body with POST /session's own rules (and, for a plan, its methods and Stripe
 * set-up), then the link's fields; every problem is reported at once, nothing is written.
 */
export async function parseLinkInput(db: Db, caller: ApiCaller, body: Record<string, unknown>, now: Date): Promise<LinkInput> {
  const fields: Record<string, string[]> = {};
  let session: z.infer<typeof sessionInputSchema> | null = null;
  let extras: z.infer<typeof linkExtrasSchema> | null = null;
  const sessionBody = sessionBodyOf(body, "link");
  try {
    session = parseOrThrow(sessionInputSchema, sessionBody);
  } catch (error) {
    Object.assign(fields, fieldsOf(error));
  }
  try {
    extras = parseOrThrow(linkExtrasSchema, body);
  } catch (error) {
    Object.assign(fields, fieldsOf(error));
  }
  if (session && extras) Object.assign(fields, crossFieldProblems(session, extras, now));
  if (Object.keys(fields).length || !session || !extras) throw new ValidationError(fields);
  // The rest of POST /session's checks (the methods; a plan's Stripe set-up), once the fields pass.
  await prepareSession(db, caller, sessionBody);
  const q = extras.adjustable_quantity;
  return {
    amount: session.amount,
    currency: session.currency,
    items: session.items,
    description: session.description ?? null,
    metadata: (session.metadata ?? {}) as Metadata,
    subscription: session.subscription ?? null,
    adjustableQuantity: q ? { minimum: q.minimum ?? 1, maximum: q.maximum } : null,
    maxUses: extras.max_uses ?? null,
    expiresAt: extras.expires_at ? new Date(extras.expires_at).toISOString() : null,
    orderPrefix: extras.order_prefix ?? null,
  };
}

type SessionFields = { items: SessionItem[]; subscription?: unknown };

function crossFieldProblems(
  session: SessionFields,
  extras: z.infer<typeof linkExtrasSchema>,
  now: Date,
): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const q = extras.adjustable_quantity;
  if (q) {
    const minimum = q.minimum ?? 1;
    const item = session.items[0]!;
    if (session.subscription) problems.adjustable_quantity = ["a plan's link cannot have an adjustable quantity"];
    else if (session.items.length !== 1)
      problems.adjustable_quantity = ["an adjustable quantity needs a link with exactly one item"];
    else if (item.quantity < minimum || item.quantity > q.maximum)
      problems.adjustable_quantity = [`the item's quantity (${item.quantity}) must lie within minimum and maximum`];
    else if (item.price * minimum < 100)
      problems.adjustable_quantity = ["price x minimum must be at least 100 cents (a session's smallest amount)"];
    else if (item.price * q.maximum > maxAmount)
      problems.adjustable_quantity = [`price x maximum must be at most ${maxAmount} cents`];
  }
  if (extras.expires_at && new Date(extras.expires_at).getTime() <= now.getTime())
    problems.expires_at = ["expires_at must be in the future"];
  return problems;
}

/**
 * POST /payment-links' body as one schema, for the OpenAPI document: POST /session's own fields
 * (without the payer's: customer, order_id, email, ip, paymentMethodId) and the link's.
 */
export const paymentLinkInputSchema = z.object({
  amount: sessionInputSchema.shape.amount,
  currency: sessionInputSchema.shape.currency,
  items: sessionInputSchema.shape.items,
  description: sessionInputSchema.shape.description,
  metadata: sessionInputSchema.shape.metadata,
  subscription: sessionInputSchema.shape.subscription,
  ...linkExtrasSchema.shape,
});
