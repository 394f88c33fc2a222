import { desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, paymentLinkSessions, payments, sessions } from "@/db/schema";
import { listedPayment, type ListedPayment } from "./list-payments";

/** The sessions a link made (newest first, at most 100), each as the payments list shows it. */
export async function listLinkPayments(db: Db, businessId: string, linkId: string): Promise<ListedPayment[]> {
  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId));
  if (!business) return [];
  const rows = await db
    .select({ session: sessions, payment: payments })
    .from(paymentLinkSessions)
    .innerJoin(sessions, eq(sessions.id, paymentLinkSessions.sessionId))
    .leftJoin(payments, eq(payments.sessionId, sessions.id))
    .where(eq(paymentLinkSessions.linkId, linkId))
    .orderBy(desc(paymentLinkSessions.sessionId))
    .limit(100);
  // The link is the business's (checked by the caller); its sessions are too.
  return rows.filter((r) => r.session.businessId === businessId).map((r) => listedPayment(r.session, r.payment, business));
}
