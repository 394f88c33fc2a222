import { cron } from "inngest";
import { inngest } from "@/inngest/client";
import { getDb } from "@/lib/db";
import { reconcileOpenAttempts } from "@/lib/payments/reconcile-attempts";

/**
 * Every minute (Inngest's finest cron), settles the payment attempts dead processes left open
 * from their providers: the embedded worker's reconciliation tick, for deployments on Inngest
 * (decision 0025). Settling is idempotent, so an overlapping run or a server's own tick is harmless.
 */
export const reconcilePayments = inngest.createFunction(
  { id: "reconcile-payments", triggers: [cron("* * * * *")], concurrency: { limit: 1 } },
  async ({ step }) => step.run("reconcile", async () => reconcileOpenAttempts(await getDb())),
);
