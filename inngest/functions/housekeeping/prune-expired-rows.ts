import { cron } from "inngest";
import { inngest } from "@/inngest/client";
import { getDb } from "@/lib/db";
import { runHousekeeping } from "@/lib/housekeeping/run-housekeeping";

/**
 * Hourly, deletes idempotency keys, finished outbox rows and rate-limit counters past their
 * retention (lib/env.ts): the embedded worker's housekeeping tick, for deployments on Inngest.
 */
export const pruneExpiredRows = inngest.createFunction(
  { id: "prune-expired-rows", triggers: [cron("17 * * * *")] },
  async ({ step }) => step.run("prune", async () => runHousekeeping(await getDb())),
);
