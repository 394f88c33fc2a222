import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { paymentLinkSessions, paymentLinks, sessions } from "@/db/schema";

export type LinkQuantityChoice = { slug: string; minimum: number; maximum: number; quantity: number };

/**
 * The quantity the payer may choose on the checkout of a session a payment link made, when the
 * link has an adjustable quantity (decision 0049): the link's slug and bounds, and the session's
 * quantity. A new choice is a new visit of `/l/{slug}?quantity=N`. Null for any other session.
 */
export async function linkQuantityChoice(db: Db, sessionId: string): Promise<LinkQuantityChoice | null> {
  const [row] = await db
    .select({ slug: paymentLinks.slug, bounds: paymentLinks.adjustableQuantity, items: sessions.items })
    .from(paymentLinkSessions)
    .innerJoin(paymentLinks, eq(paymentLinks.id, paymentLinkSessions.linkId))
    .innerJoin(sessions, eq(sessions.id, paymentLinkSessions.sessionId))
    .where(and(eq(paymentLinkSessions.sessionId, sessionId), isNotNull(paymentLinks.adjustableQuantity)));
  const quantity = row?.items[0]?.quantity;
  if (!row?.bounds || quantity === undefined) return null;
  return { slug: row.slug, minimum: row.bounds.minimum, maximum: row.bounds.maximum, quantity };
}
