import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businesses, subscriptions, webhookEvents } from "@/db/schema";
import { advanceSandboxTestClock } from "@/lib/providers/stripe/advance-sandbox-test-clock";
import { parseDbTime } from "@/lib/time";
import { sdkFor } from "@kassa/stripe-emulator/testing";
import { api, testDb, testHandle } from "@/test/helpers";
import {
  emulatorKey,
  runJobs,
  signUp,
  subscriptionBusiness,
  subscriptionOfSession,
  withLoopbackApi,
  withSubscriptionProviders,
} from "./testing/subscription-fixtures";

// On PostgreSQL these requests truly run in parallel; PGlite serializes them (nothing to prove there).
withLoopbackApi();
const providers = withSubscriptionProviders();
const emulator = () => providers.current().emulator;
const onPostgres = () => testHandle().kind === "postgres";

describe("parallel cancel, resume and a renewal on one subscription", () => {
  it("end in a state Kassa and Stripe agree on, with at most one subscription_canceled and no 5xx", async (ctx) => {
    if (!onPostgres()) ctx.skip();
    for (let round = 0; round < 3; round++) {
      const { biz } = await subscriptionBusiness();
      const { sessionId } = await signUp(biz);
      await runJobs(biz.business.id);
      const row = await subscriptionOfSession(sessionId);
      const [business] = await testDb().select().from(businesses).where(eq(businesses.id, biz.business.id));
      // The renewal happens at Stripe now; its events are processed in parallel with the requests.
      await advanceSandboxTestClock(
        testDb(),
        business!,
        new Date(parseDbTime(row.currentPeriodEnd!).getTime() + 7_200_000),
      );
      const post = (path: string, body?: unknown) =>
        api("POST", `/subscriptions/${row.id}/${path}`, { key: biz.secretKey, body });
      const results = await Promise.all([
        post("cancel"),
        post("cancel", { at_period_end: true }),
        post("resume"),
        post("cancel", { at_period_end: false }),
        post("resume"),
        runJobs(biz.business.id).then(() => ({ status: 200, body: null })),
      ]);
      for (const r of results) expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
      await emulator().idle();
      await runJobs(biz.business.id);
      const [after] = await testDb().select().from(subscriptions).where(eq(subscriptions.id, row.id));
      expect(after!.pendingOp).toBeNull();
      const atStripe = await sdkFor(emulator(), emulatorKey(biz)).subscriptions.retrieve(
        row.providerSubscriptionId!,
      );
      if (after!.status === "canceled") expect(atStripe.status).toBe("canceled");
      else expect(atStripe.cancel_at_period_end).toBe(after!.cancelAtPeriodEnd);
      const canceled = await testDb()
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.subscriptionId, row.id));
      expect(canceled.filter((e) => e.type === "subscription_canceled").length).toBe(
        after!.status === "canceled" ? 1 : 0,
      );
      expect(canceled.filter((e) => e.type === "succeeded").length).toBe(2);
      expect(after!.cyclesCount).toBe(2);
    }
  });
});
