import type { Db } from "@/db/client";
import type { Session } from "@/db/schema";
import { enqueueJob, type EnqueueJobInput } from "@/lib/jobs/enqueue-job";

type Expiring = Pick<Session, "id" | "businessId" | "expiresAt">;

/** The expiry job of a session: due at its `expires_at` on the business's clock. */
export function sessionExpiryJob(session: Expiring): EnqueueJobInput {
  return {
    kind: "expire_session",
    businessId: session.businessId,
    payload: { sessionId: session.id },
    runAt: session.expiresAt,
    businessClock: true,
    dedupeKey: `expire_session:${session.id}`,
    maxAttempts: 10,
  };
}

/**
 * Schedules the expiry of a new session, due at its `expires_at` on the business's clock. Call it
 * in the transaction that creates the session. Scheduling twice is harmless.
 */
export async function scheduleSessionExpiry(tx: Db, session: Expiring) {
  await enqueueJob(tx, sessionExpiryJob(session));
}
