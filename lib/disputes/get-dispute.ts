import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { disputes, type Dispute } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { disputeIdPattern } from "./dispute-schemas";

export const disputeNotFound = () =>
  new NotFoundError("dispute_not_found", "No such dispute for this business");

/** A dispute of this business, or 404 `dispute_not_found` (another business's is as unknown). */
export async function findDispute(db: Db, businessId: string, disputeId: string): Promise<Dispute> {
  if (!disputeIdPattern.test(disputeId)) throw disputeNotFound();
  const [row] = await db
    .select()
    .from(disputes)
    .where(and(eq(disputes.id, disputeId), eq(disputes.businessId, businessId)))
    .limit(1);
  if (!row) throw disputeNotFound();
  return row;
}
