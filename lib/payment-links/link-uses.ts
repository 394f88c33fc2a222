import { and, eq, gt, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { paymentLinkSessions, payments, sessions, type PaymentLink } from "@/db/schema";
import { businessNowSql } from "@/lib/clock";

/**
 * What a link's "limit of uses" counts (issue 41, decision 0049 as revised): payments, and the
 * checkouts still open, each holding a use until it is paid or its session expires. A visit that
 * leaves releases its use when its session expires (24 hours); a declined payment releases it.
 */
export type LinkUsage = {
  /** Sessions paid, or whose payment is under way (processing, pending, held for review). */
  paid: number;
  /** Checkouts still open (unpaid, or failed and still retryable, before their expiry). */
  open: number;
};

/** Payment statuses that use up a link's use for good (the payment went through or is under way). */
const usedStatuses = ["succeeded", "processing", "pending", "pending_review"] as const;

/** The link sessions holding a use: paid or under way, or open and not expired on the business's clock. */
function holdsUse(businessId: string): SQL {
  return or(
    inArray(payments.status, [...usedStatuses]),
    and(
      or(isNull(payments.status), eq(payments.status, "failed")),
      gt(sessions.expiresAt, businessNowSql(businessId)),
    ),
  )!;
}

/** Each link's usage (links of one business), zero for a link none of whose sessions holds a use. */
export async function linkUsages(db: Db, businessId: string, linkIds: string[]): Promise<Map<string, LinkUsage>> {
  const usages = new Map<string, LinkUsage>(linkIds.map((id) => [id, { paid: 0, open: 0 }]));
  if (linkIds.length === 0) return usages;
  const rows = await db
    .select({
      linkId: paymentLinkSessions.linkId,
      paid: sql<string>`count(*) filter (where ${inArray(payments.status, [...usedStatuses])})`,
      held: sql<string>`count(*)`,
    })
    .from(paymentLinkSessions)
    .innerJoin(sessions, eq(sessions.id, paymentLinkSessions.sessionId))
    .leftJoin(payments, eq(payments.sessionId, sessions.id))
    .where(and(inArray(paymentLinkSessions.linkId, linkIds), eq(sessions.businessId, businessId), holdsUse(businessId)))
    .groupBy(paymentLinkSessions.linkId);
  for (const row of rows) usages.set(row.linkId, { paid: Number(row.paid), open: Number(row.held) - Number(row.paid) });
  return usages;
}

/** One link's usage. */
export async function linkUsage(db: Db, link: Pick<PaymentLink, "id" | "businessId">): Promise<LinkUsage> {
  return (await linkUsages(db, link.businessId, [link.id])).get(link.id)!;
}

/** The uses `max_uses` is compared with: payments plus open checkouts. */
export const usesOf = (usage: LinkUsage) => usage.paid + usage.open;
