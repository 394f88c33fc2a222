import { and, asc, desc, eq, gt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { paymentLinks } from "@/db/schema";
import { listLimitParam, parseOrThrow } from "@/lib/http/validation";
import { viewPaymentLinks, type PaymentLinkList, type PaymentLinkView } from "./payment-link-schema";

export const linkListQuerySchema = z.object({
  limit: listLimitParam().optional().meta({ description: "Page size: an integer from 1 to 100 (default 10)." }),
  starting_after: z
    .string()
    .regex(/^plink_[0-9A-Za-z]{1,64}$/, { error: "starting_after must be a payment link id" })
    .optional()
    .meta({ description: "The last id of the previous page." }),
});
export type LinkListQuery = z.infer<typeof linkListQuerySchema>;

export function parseLinkListQuery(params: URLSearchParams): LinkListQuery {
  const raw: Record<string, string> = {};
  for (const key of ["limit", "starting_after"]) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  return parseOrThrow(linkListQuerySchema, raw);
}

/** GET /payment-links: oldest first (ids sort by creation), `limit` per page after `starting_after`. */
export async function listPaymentLinks(db: Db, businessId: string, query: LinkListQuery): Promise<PaymentLinkList> {
  const limit = query.limit ?? 10;
  const where: SQL[] = [eq(paymentLinks.businessId, businessId)];
  if (query.starting_after) where.push(gt(paymentLinks.id, query.starting_after));
  const rows = await db
    .select()
    .from(paymentLinks)
    .where(and(...where))
    .orderBy(asc(paymentLinks.id))
    .limit(limit + 1);
  return { data: await viewPaymentLinks(db, businessId, rows.slice(0, limit)), has_more: rows.length > limit };
}

/** The dashboard's list: the newest links first (at most 200). */
export async function listPaymentLinksNewestFirst(db: Db, businessId: string): Promise<PaymentLinkView[]> {
  const rows = await db
    .select()
    .from(paymentLinks)
    .where(eq(paymentLinks.businessId, businessId))
    .orderBy(desc(paymentLinks.id))
    .limit(200);
  return viewPaymentLinks(db, businessId, rows);
}
