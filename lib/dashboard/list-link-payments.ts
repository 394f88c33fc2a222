import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses } from "@/db/schema";
import { linkSessionRows } from "@/lib/payment-links/list-link-sessions";
import { listedPayments, type ListedPayment } from "./list-payments";

/** The sessions a link made (newest first, at most 100), each as the payments list shows it. */
export async function listLinkPayments(db: Db, businessId: string, linkId: string): Promise<ListedPayment[]> {
  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId));
  if (!business) return [];
  // The link is the business's (checked by the caller).
  const rows = await linkSessionRows(db, businessId, linkId, { newestFirst: true, limit: 100 });
  return listedPayments(db, business, rows);
}
