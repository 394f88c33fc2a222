import { and, asc, eq, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookEvents, type WebhookEvent, type WebhookEventType } from "@/db/schema";
import { ProviderError } from "@/lib/errors";
import { defaultJobContext } from "@/lib/job-context";
import { localExecutorContext } from "@/lib/jobs/local-executors";
import { runDueJobs } from "@/lib/jobs/run-due-jobs";

/** How long a trigger waits for the provider's callbacks and the jobs they cause. */
export const triggerTimeoutMs = 60_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the business's due jobs (the server's worker runs them too; without a server nobody
 * else would) until `found` answers something, or fails after the timeout. Provider callbacks
 * (the sandbox Stripe account's webhooks) arrive on their own schedule: hence the polling.
 */
export async function waitFor<T>(
  db: Db,
  businessId: string,
  what: string,
  found: () => Promise<T | null | undefined>,
  timeoutMs = triggerTimeoutMs,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await found();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline)
      throw new ProviderError(
        `gave up waiting for ${what} after ${timeoutMs / 1000} s (the sandbox provider's callbacks reach Kassa through its API: is the Kassa server running?)`,
      );
    const ran = await runDueJobs(db, {
      businessId,
      ctx: localExecutorContext() ?? defaultJobContext(),
      deadlineMs: Math.max(1000, deadline - Date.now()),
    });
    if (!ran) await pause(100);
  }
}

/** The first event of `type` about a session or a subscription, once it is written. */
export function eventOf(
  db: Db,
  businessId: string,
  type: WebhookEventType,
  about: { sessionId?: string; subscriptionId?: string },
): Promise<WebhookEvent> {
  return waitFor(db, businessId, `the ${type} event`, async () => {
    const [row] = await db
      .select()
      .from(webhookEvents)
      .where(
        and(
          eq(webhookEvents.businessId, businessId),
          eq(webhookEvents.type, type),
          or(
            about.sessionId ? eq(webhookEvents.sessionId, about.sessionId) : undefined,
            about.subscriptionId ? eq(webhookEvents.subscriptionId, about.subscriptionId) : undefined,
          ),
        ),
      )
      .orderBy(asc(webhookEvents.createdAt), asc(webhookEvents.id))
      .limit(1);
    return row;
  });
}
