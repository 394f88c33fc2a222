import { and, asc, desc, eq, gt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { paymentLinkSessions, payments, sessions, type Business } from "@/db/schema";
import { listLimitParam, parseOrThrow } from "@/lib/http/validation";
import { paymentView } from "@/lib/payments/get-payment";
import { PaymentSchema } from "@/lib/payments/payment-schemas";
import { getPaymentLink } from "./set-payment-link-active";

export const linkSessionsQuerySchema = z.object({
  limit: listLimitParam()
    .optional()
    .meta({ description: "Page size: an integer from 1 to 100 (default 10)." }),
  starting_after: z
    .string()
    .regex(/^cs_[0-9A-Za-z]{1,64}$/, { error: "starting_after must be a session id" })
    .optional()
    .meta({ description: "The last session id of the previous page." }),
});
export type LinkSessionsQuery = z.infer<typeof linkSessionsQuerySchema>;

export const LinkSessionListSchema = z
  .strictObject({ data: z.array(PaymentSchema), has_more: z.boolean() })
  .meta({
    id: "PaymentLinkSessionList",
    description: "The sessions a link made, oldest first, each as GET /payment/{session_id} answers it.",
  });
export type LinkSessionList = z.infer<typeof LinkSessionListSchema>;

export function parseLinkSessionsQuery(params: URLSearchParams): LinkSessionsQuery {
  const raw: Record<string, string> = {};
  for (const key of ["limit", "starting_after"]) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  return parseOrThrow(linkSessionsQuerySchema, raw);
}

/**
 * The sessions a link made with their payments (the link is the business's: checked by the
 * caller), oldest or newest first, at most `limit`, after the `startingAfter` session id.
 */
export async function linkSessionRows(
  db: Db,
  businessId: string,
  linkId: string,
  page: { newestFirst?: boolean; startingAfter?: string; limit: number },
) {
  const where: SQL[] = [eq(paymentLinkSessions.linkId, linkId), eq(sessions.businessId, businessId)];
  if (page.startingAfter) where.push(gt(paymentLinkSessions.sessionId, page.startingAfter));
  return db
    .select({ session: sessions, payment: payments })
    .from(paymentLinkSessions)
    .innerJoin(sessions, eq(sessions.id, paymentLinkSessions.sessionId))
    .leftJoin(payments, eq(payments.sessionId, sessions.id))
    .where(and(...where))
    .orderBy(page.newestFirst ? desc(paymentLinkSessions.sessionId) : asc(paymentLinkSessions.sessionId))
    .limit(page.limit);
}

/**
 * GET /payment-links/{id}/sessions: the link's sessions and their payments, oldest first (session
 * ids sort by creation), `limit` per page after `starting_after`. An unknown link, or another
 * business's, is PaymentLinkNotFoundError.
 */
export async function listLinkSessions(
  db: Db,
  business: Business,
  linkId: string,
  query: LinkSessionsQuery,
): Promise<LinkSessionList> {
  const link = await getPaymentLink(db, business.id, linkId);
  const limit = query.limit ?? 10;
  const rows = await linkSessionRows(db, business.id, link.id, {
    startingAfter: query.starting_after,
    limit: limit + 1,
  });
  return {
    data: rows.slice(0, limit).map((r) => paymentView(r.session, r.payment, business)),
    has_more: rows.length > limit,
  };
}
