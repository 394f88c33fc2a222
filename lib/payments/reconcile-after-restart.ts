import { ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { instances } from "@/db/schema";
import { instanceId } from "@/lib/instances/instance-heartbeat";
import { reconcileOpenAttempts, type ReconcileResult } from "./reconcile-attempts";

/**
 * For a server starting on the embedded database only: DATA_DIR is open in one process at a time
 * (decisions 0007 and 0038), so every other process in `instances` is dead. Their rows go, and
 * what they left open is reconciled at once, not after the heartbeat timeout (decision 0025):
 * a payer's retry after a crash and restart gets the settled answer in seconds. On PostgreSQL
 * other instances may be alive; the heartbeat rule stays.
 */
export async function reconcileAfterRestart(db: Db): Promise<ReconcileResult> {
  await db.delete(instances).where(ne(instances.id, instanceId()));
  return reconcileOpenAttempts(db);
}
