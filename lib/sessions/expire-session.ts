import { eq } from "drizzle-orm";
import { businesses, payments, sessions } from "@/db/schema";
import { businessNow } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { transactionWithJobs } from "@/lib/jobs/enqueue-job";
import type { JobHandler } from "@/lib/jobs/job-outcome";
import { parseDbTime, toDbTime } from "@/lib/time";
import { emitWebhookEvent } from "@/lib/webhooks/emit-webhook-event";

/**
 * The `expire_session` job. A session still unpaid at its expiry gets a payment in status
 * `expired` (amount: the session's) and emits the `expired` event. Idempotent: the session row is
 * locked, and a session that already has a payment (paid, in progress, or expired by an earlier
 * run) is left alone.
 */
export const expireSessionJob: JobHandler = async (db, job) => {
  const sessionId = String(job.payload.sessionId ?? "");
  return transactionWithJobs(db, async (tx) => {
    const [row] = await tx
      .select({ session: sessions, business: businesses })
      .from(sessions)
      .innerJoin(businesses, eq(businesses.id, sessions.businessId))
      .where(eq(sessions.id, sessionId))
      .for("update", { of: sessions });
    if (!row) return { status: "done", note: "session not found" };
    const expiresAt = parseDbTime(row.session.expiresAt);
    if (expiresAt.getTime() > businessNow(row.business).getTime())
      return { status: "retry", at: expiresAt, clock: "business", note: "session not expired yet" };
    const [payment] = await tx
      .insert(payments)
      .values({
        id: newId("payment"),
        sessionId: row.session.id,
        businessId: row.session.businessId,
        status: "expired",
        amount: row.session.amount,
        createdAt: toDbTime(businessNow(row.business)),
      })
      .onConflictDoNothing({ target: payments.sessionId })
      .returning();
    if (!payment) return { status: "done", note: "session already has a payment" };
    await emitWebhookEvent(tx, { business: row.business, session: row.session, payment, type: "expired" });
    return { status: "done" };
  });
};
