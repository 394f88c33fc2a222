import { sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { payoutUsers, type AuditChanges, type PayoutUser } from "@/db/schema";
import { encrypt } from "@/lib/crypto";
import { NotFoundError } from "@/lib/errors";
import { payoutUserRef } from "./find-payout-user";
import { newPayoutHash, payoutHashDigest } from "./payout-hash";

async function update(
  db: Db,
  businessId: string,
  ref: string,
  values: PgUpdateSetSource<typeof payoutUsers>,
  action: "payout_user.deactivate" | "payout_user.reactivate" | "payout_user.rotate_hash",
) {
  return db.transaction(async (tx) => {
    const [user] = await tx.update(payoutUsers).set(values).where(payoutUserRef(businessId, ref)).returning();
    if (!user) throw new NotFoundError("payout_user_not_found", "No payout user with this e-mail or id");
    const changes: AuditChanges = action === "payout_user.rotate_hash" ? { hash: { from: "[redacted]", to: "[redacted]" } } : { status: { from: null, to: user.status } };
    await recordAudit(tx, { businessId, action, target: { type: "payout_user", id: user.id }, changes });
    return user;
  });
}

/**
 * The merchant deactivates a payout user: its hash then answers 401 everywhere and no new funds
 * can be allocated to it. Its balance and pending withdrawals stay as they are. Repeating is a no-op.
 */
export async function deactivatePayoutUser(db: Db, businessId: string, ref: string): Promise<PayoutUser> {
  return update(db, businessId, ref, {
    status: "inactive",
    deactivatedAt: sql`CASE WHEN ${payoutUsers.status} = 'inactive' THEN ${payoutUsers.deactivatedAt} ELSE now() END`,
  }, "payout_user.deactivate");
}

/** Reactivates it: the same hash works again. Repeating is a no-op. */
export async function reactivatePayoutUser(db: Db, businessId: string, ref: string): Promise<PayoutUser> {
  return update(db, businessId, ref, { status: "active", deactivatedAt: null }, "payout_user.reactivate");
}

/** Replaces a payout user's hash (e.g. after a leak): the old one answers 401 from now on. */
export async function rotatePayoutHash(
  db: Db,
  businessId: string,
  ref: string,
): Promise<{ user: PayoutUser; hash: string }> {
  const hash = newPayoutHash();
  const user = await update(db, businessId, ref, {
    hashDigest: payoutHashDigest(hash),
    hashEnc: encrypt(hash),
    hashPrefix: hash.slice(0, 6),
  }, "payout_user.rotate_hash");
  return { user, hash };
}
