import { z } from "zod";
import type { ApiCaller } from "@/lib/auth/api-keys";
import { findBusiness } from "@/lib/businesses/create-business";
import { businessNow } from "@/lib/clock";
import { NotFoundError, ValidationError } from "@/lib/errors";
import { createPaymentLink } from "@/lib/payment-links/create-payment-link";
import { parseLinkInput } from "@/lib/payment-links/link-input";
import { viewPaymentLink, type PaymentLinkView } from "@/lib/payment-links/payment-link-schema";
import { setPaymentLinkActive } from "@/lib/payment-links/set-payment-link-active";
import { parseMoney } from "./parse-money";
import { businessIdField, staffAction } from "./staff-action";

const text = z.string().optional().transform((v) => (v ?? "").trim());

const createSchema = z.object({
  business: businessIdField,
  name: text,
  price: text,
  quantity: text,
  interval: z.enum(["", "day", "week", "month", "year"], { error: "Choose how often a plan charges" }).optional(),
  min_quantity: text,
  max_quantity: text,
  max_uses: text,
  expires_at: text,
  metadata: text,
});
type CreateForm = z.infer<typeof createSchema>;

/** A whole number typed in the form, kept as typed when it is not one (the API's rules then name it). */
function whole(value: string): number | string | undefined {
  if (value === "") return undefined;
  return /^\d{1,9}$/.test(value) ? Number(value) : value;
}

/**
 * The form as POST /payment-links' body: one item (name, price, quantity), an optional plan, the
 * payer's quantity range, a limit, an expiry (end of that day, UTC) and metadata as a JSON object.
 */
export function linkBodyOfForm(form: CreateForm): Record<string, unknown> {
  const price = parseMoney(form.price);
  if (!price.ok) throw ValidationError.field("price", form.price === "" ? "price is required" : price.message);
  const quantity = whole(form.quantity) ?? 1;
  let metadata: unknown;
  if (form.metadata !== "") {
    try {
      metadata = JSON.parse(form.metadata);
    } catch {
      throw ValidationError.field("metadata", "metadata must be a JSON object, e.g. {\"campaign\": \"autumn\"}");
    }
  }
  const maximum = whole(form.max_quantity);
  const minimum = whole(form.min_quantity);
  return {
    amount: typeof quantity === "number" ? price.cents * quantity : price.cents,
    currency: "USD",
    items: [{ name: form.name, quantity, price: price.cents }],
    ...(form.interval ? { subscription: { interval: form.interval } } : {}),
    ...(maximum !== undefined || minimum !== undefined ? { adjustable_quantity: { minimum, maximum } } : {}),
    ...(form.max_uses !== "" ? { max_uses: whole(form.max_uses) } : {}),
    ...(form.expires_at !== "" ? { expires_at: /^\d{4}-\d{2}-\d{2}$/.test(form.expires_at) ? `${form.expires_at}T23:59:59Z` : form.expires_at } : {}),
    ...(metadata !== undefined ? { metadata } : {}),
  };
}

/** Create a link from the dashboard: the API's own checks (parseLinkInput), the API's service. */
export const createPaymentLinkAs = staffAction<typeof createSchema, PaymentLinkView>({
  permission: "payment_links",
  schema: createSchema,
  run: async ({ db, businessId, input: form }) => {
    const business = await findBusiness(db, businessId);
    if (!business) throw new NotFoundError("business_not_found", "No such business");
    const caller: ApiCaller = { business, keyKind: "secret", keyId: "dashboard" };
    const input = await parseLinkInput(db, caller, linkBodyOfForm(form), businessNow(business));
    const link = await viewPaymentLink(db, await createPaymentLink(db, caller, input));
    return { message: `The link is ready: ${link.url}`, data: link };
  },
});

const linkSchema = z.object({
  business: businessIdField,
  link: z.string({ error: "link is required" }).regex(/^plink_[0-9A-Z]{26}$/, { error: "No such payment link" }),
});

/** Deactivate a link: its URL shows a page saying so. */
export const deactivatePaymentLinkAs = staffAction<typeof linkSchema, PaymentLinkView>({
  permission: "payment_links",
  schema: linkSchema,
  run: async ({ db, businessId, input }) => ({
    message: "The link is deactivated: visitors see a page saying so.",
    data: await viewPaymentLink(db, await setPaymentLinkActive(db, businessId, input.link, false)),
  }),
});

/** Reactivate a link. */
export const activatePaymentLinkAs = staffAction<typeof linkSchema, PaymentLinkView>({
  permission: "payment_links",
  schema: linkSchema,
  run: async ({ db, businessId, input }) => ({
    message: "The link is active again.",
    data: await viewPaymentLink(db, await setPaymentLinkActive(db, businessId, input.link, true)),
  }),
});
