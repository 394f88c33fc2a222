import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payoutEntries, payoutUsers, payoutWithdrawals } from "@/db/schema";
import { businessNowSql } from "@/lib/clock";
import { normalizeEmail } from "./payout-input";

/** How far back a payee's amounts add up against the four-eyes threshold: a rolling day (decision 0061). */
export const fourEyesWindowHours = 24;

const windowStart = (businessId: string) => businessNowSql(businessId, -fourEyesWindowHours * 3_600_000);

/**
 * Holds, until the transaction `tx` ends, the four-eyes decisions for one payee (an e-mail, any
 * case) of a business: a second allocation or withdrawal approval for the same payee waits here
 * until the first has committed, then counts it.
 */
export async function lockPayee(tx: Db, businessId: string, email: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`four-eyes:${businessId}:${normalizeEmail(email)}`}, 0))`);
}

/** The e-mail of a payout user of the business (the payee a withdrawal pays). */
export async function payeeEmailOf(tx: Db, businessId: string, payoutUserId: string): Promise<string> {
  const [user] = await tx
    .select({ email: payoutUsers.emailNormalized })
    .from(payoutUsers)
    .where(and(eq(payoutUsers.id, payoutUserId), eq(payoutUsers.businessId, businessId)));
  if (!user) throw new Error(`payout user ${payoutUserId} not found`);
  return user.email;
}

/** Cents allocated to the payee (an e-mail, any case) within the window, by any means (dashboard or API), by the business's clock. */
export async function allocatedInWindow(tx: Db, businessId: string, email: string): Promise<number> {
  const [row] = await tx
    .select({ total: sql<string>`coalesce(sum(${payoutEntries.amount}), 0)` })
    .from(payoutEntries)
    .innerJoin(payoutUsers, eq(payoutUsers.id, payoutEntries.payoutUserId))
    .where(
      and(
        eq(payoutUsers.businessId, businessId),
        eq(payoutUsers.emailNormalized, normalizeEmail(email)),
        eq(payoutEntries.type, "allocation"),
        gt(payoutEntries.createdAt, windowStart(businessId)),
      ),
    );
  return Number(row?.total ?? 0);
}

/** Cents of the payout user's withdrawals completed (paid out) within the window, by the business's clock. */
export async function withdrawnInWindow(tx: Db, businessId: string, payoutUserId: string): Promise<number> {
  const [row] = await tx
    .select({ total: sql<string>`coalesce(sum(${payoutWithdrawals.amount}), 0)` })
    .from(payoutWithdrawals)
    .where(
      and(
        eq(payoutWithdrawals.businessId, businessId),
        eq(payoutWithdrawals.payoutUserId, payoutUserId),
        eq(payoutWithdrawals.status, "completed"),
        gt(payoutWithdrawals.resolvedAt, windowStart(businessId)),
      ),
    );
  return Number(row?.total ?? 0);
}
