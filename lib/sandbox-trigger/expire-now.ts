import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { jobs, sessions, type Business } from "@/db/schema";
import { businessNowSql } from "@/lib/clock";

/**
 * Makes a session the trigger just created expire now: its `expires_at` becomes the business's
 * now and its expiry job falls due. The real expiry job then expires it (payment `expired`,
 * event `expired`); nothing else of the business moves (the sandbox clock stays where it is).
 */
export async function expireNow(db: Db, business: Pick<Business, "id">, sessionId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(sessions)
      .set({ expiresAt: businessNowSql(business.id) })
      .where(and(eq(sessions.id, sessionId), eq(sessions.businessId, business.id)));
    await tx
      .update(jobs)
      .set({ runAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(jobs.dedupeKey, `expire_session:${sessionId}`), eq(jobs.status, "pending")));
  });
}
