import { z } from "zod";
import type { PaymentLink } from "@/db/schema";
import type { Db } from "@/db/client";
import { linkUsage, linkUsages, usesOf, type LinkUsage } from "./link-uses";
import { origin } from "@/lib/env";
import { isoMicros } from "@/lib/time";

const itemSchema = z.strictObject({ name: z.string(), quantity: z.number().int(), price: z.number().int() });

export const PaymentLinkSchema = z
  .strictObject({
    id: z.string().meta({ example: "plink_01JD8Y3X7Q2W5E9R4T6Y8U0I2O" }),
    object: z.literal("payment_link"),
    url: z.string().meta({
      description: "`{ORIGIN}/l/{slug}`: each visit answers 303 to a new session's checkout.",
      example: "https://pay.example.com/l/h7Kq2ZxP9aLm",
    }),
    active: z.boolean(),
    amount: z.number().int().meta({ description: "Cents: the sum of price x quantity over items." }),
    currency: z.string(),
    items: z.array(itemSchema),
    description: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).meta({ description: "Passed to every session of the link." }),
    subscription: z
      .strictObject({ interval: z.enum(["day", "week", "month", "year"]), interval_count: z.number().int() })
      .nullable(),
    adjustable_quantity: z.strictObject({ minimum: z.number().int(), maximum: z.number().int() }).nullable(),
    max_uses: z.number().int().nullable().meta({
      description:
        "How many uses the link allows: payments, and checkouts still open (each holds a use until it is paid or its session expires). Null: no limit.",
    }),
    uses: z.number().int().meta({
      description:
        "Uses counted against `max_uses`: sessions paid (or whose payment is under way) plus checkouts still open. A visit that leaves without paying stops counting when its session expires.",
    }),
    expires_at: z.string().nullable(),
    order_prefix: z.string().meta({ description: "Its sessions' order ids are `{order_prefix}-{n}`." }),
    created_at: z.string().meta({ example: "2026-11-26T14:02:50.123456Z" }),
  })
  .meta({ id: "PaymentLink" });
export type PaymentLinkView = z.infer<typeof PaymentLinkSchema>;

export const PaymentLinkListSchema = z
  .strictObject({ data: z.array(PaymentLinkSchema), has_more: z.boolean() })
  .meta({ id: "PaymentLinkList", description: "Oldest first; the next page holds the links after its last id." });
export type PaymentLinkList = z.infer<typeof PaymentLinkListSchema>;

export function linkUrl(slug: string): string {
  return `${origin()}/l/${slug}`;
}

/** The API's PaymentLink of a link, with its usage (linkUsage / linkUsages). */
export function paymentLinkView(link: PaymentLink, usage: LinkUsage): PaymentLinkView {
  return {
    id: link.id,
    object: "payment_link",
    url: linkUrl(link.slug),
    active: link.active,
    amount: link.amount,
    currency: link.currency,
    items: link.items,
    description: link.description,
    metadata: link.metadata,
    subscription: link.subscriptionInterval
      ? { interval: link.subscriptionInterval, interval_count: link.subscriptionIntervalCount ?? 1 }
      : null,
    adjustable_quantity: link.adjustableQuantity,
    max_uses: link.maxUses,
    uses: usesOf(usage),
    expires_at: link.expiresAt ? isoMicros(link.expiresAt) : null,
    order_prefix: link.orderPrefix,
    created_at: isoMicros(link.createdAt),
  };
}

/** The API's PaymentLink of a link, its usage read now. */
export async function viewPaymentLink(db: Db, link: PaymentLink): Promise<PaymentLinkView> {
  return paymentLinkView(link, await linkUsage(db, link));
}

/** The API's PaymentLinks of one business's links, their usage read in one query. */
export async function viewPaymentLinks(db: Db, businessId: string, links: PaymentLink[]): Promise<PaymentLinkView[]> {
  const usages = await linkUsages(db, businessId, links.map((l) => l.id));
  return links.map((link) => paymentLinkView(link, usages.get(link.id)!));
}
