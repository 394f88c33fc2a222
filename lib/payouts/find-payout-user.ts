import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payoutUsers, type PayoutUser } from "@/db/schema";
import { NotFoundError } from "@/lib/errors";
import { normalizeEmail } from "./payout-input";

/** The condition for "this business's payout user named by `ref`": an e-mail (any case) or a `pu_` id. */
export function payoutUserRef(businessId: string, ref: string) {
  return and(
    eq(payoutUsers.businessId, businessId),
    ref.includes("@") ? eq(payoutUsers.emailNormalized, normalizeEmail(ref)) : eq(payoutUsers.id, ref),
  );
}

/** A payout user of this business by e-mail or id; 404 `payout_user_not_found` otherwise. */
export async function findPayoutUser(db: Db, businessId: string, ref: string): Promise<PayoutUser> {
  const [user] = await db.select().from(payoutUsers).where(payoutUserRef(businessId, ref)).limit(1);
  if (!user) throw new NotFoundError("payout_user_not_found", "No payout user with this e-mail or id");
  return user;
}
