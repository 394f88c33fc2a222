import fc from "fast-check";
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businesses, providerEvents, sessions, subscriptions, webhookEvents } from "@/db/schema";
import { getBalances } from "@/lib/ledger/get-balances";
import { advanceSandboxTestClock } from "@/lib/providers/stripe/advance-sandbox-test-clock";
import { sdkFor } from "@kassa/stripe-emulator/testing";
import { parseDbTime } from "@/lib/time";
import { api, testDb, testHandle } from "@/test/helpers";
import { handleSubscriptionEvent, isSubscriptionEvent } from "./handle-subscription-event";
import {
  emulatorKey,
  runJobs,
  signUp,
  subscriptionBusiness,
  subscriptionOfSession,
  withLoopbackApi,
  withSubscriptionProviders,
} from "./testing/subscription-fixtures";

withLoopbackApi();
const providers = withSubscriptionProviders();
const emulator = () => providers.current().emulator;
const day = 86_400_000;

/**
 * Stripe moves on while Kassa processes nothing: a renewal that fails, its retry that succeeds,
 * then a cancellation scheduled in Stripe's dashboard. Answers the stored (unprocessed) events.
 */
async function scenario() {
  const { biz } = await subscriptionBusiness();
  const { sessionId, orderId } = await signUp(biz);
  await runJobs(biz.business.id);
  const row = await subscriptionOfSession(sessionId);
  const key = emulatorKey(biz);
  emulator().setBilling(key, { retryDelaysSeconds: [86_400], afterRetries: "cancel" });
  emulator().setCardBehavior(key, row.providerPaymentMethodId!, "4000000000000341");
  const [business] = await testDb().select().from(businesses).where(eq(businesses.id, biz.business.id));
  const renewal = parseDbTime(row.currentPeriodEnd!).getTime();
  await advanceSandboxTestClock(testDb(), business!, new Date(renewal + 7_200_000));
  emulator().setCardBehavior(key, row.providerPaymentMethodId!, "4242424242424242");
  await advanceSandboxTestClock(testDb(), business!, new Date(renewal + day + 10_800_000));
  emulator().cancelSubscriptionFromDashboard(key, row.providerSubscriptionId!, { atPeriodEnd: true });
  await emulator().idle();
  const stored = await testDb()
    .select()
    .from(providerEvents)
    .where(and(eq(providerEvents.businessId, biz.business.id), eq(providerEvents.status, "received")));
  const events = stored.filter((e) => isSubscriptionEvent(e.type));
  const stripe = await sdkFor(emulator(), key).subscriptions.retrieve(row.providerSubscriptionId!);
  return { biz, row, orderId, events, stripePeriodEnd: stripe.items.data[0]!.current_period_end };
}

describe("inbound subscription events, duplicated and in any order", () => {
  it(
    "converge on Stripe's state: one renewal, at most one failure notice, one credit",
    { timeout: 180_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 40, maxLength: 40 }),
          fc.array(fc.nat(), { maxLength: 6 }),
          async (keys, repeats) => {
            const { biz, row, orderId, events, stripePeriodEnd } = await scenario();
            expect(events.map((e) => e.type)).toEqual(
              expect.arrayContaining([
                "invoice.paid",
                "invoice.payment_failed",
                "customer.subscription.updated",
              ]),
            );
            const order = events
              .map((e, i) => ({ e, k: keys[i % keys.length]! + i * 1e-9 }))
              .sort((a, b) => a.k - b.k)
              .map((x) => x.e);
            const replayed = [...order, ...repeats.map((r) => events[r % events.length]!)];
            for (const event of replayed) await handleSubscriptionEvent(testDb(), event);

            const [after] = await testDb().select().from(subscriptions).where(eq(subscriptions.id, row.id));
            expect(after).toMatchObject({
              status: "active",
              cyclesCount: 2,
              cancelAtPeriodEnd: true,
              cancelRequestedBy: null,
              cancellationReason: "cancellation_requested",
            });
            expect(parseDbTime(after!.currentPeriodEnd!).getTime()).toBe(stripePeriodEnd * 1000);
            const sent = await testDb()
              .select({ type: webhookEvents.type, orderId: webhookEvents.orderId })
              .from(webhookEvents)
              .where(eq(webhookEvents.subscriptionId, row.id));
            expect(sent.filter((s) => s.type === "succeeded" && s.orderId === `${orderId}-2`)).toHaveLength(
              1,
            );
            expect(sent.filter((s) => s.type === "subscription_payment_failed").length).toBeLessThanOrEqual(
              1,
            );
            expect(sent.filter((s) => s.type === "subscription_canceled")).toHaveLength(0);
            const renewalSessions = await testDb()
              .select()
              .from(sessions)
              .where(and(eq(sessions.businessId, biz.business.id), like(sessions.orderId, `${orderId}-%`)));
            expect(renewalSessions).toHaveLength(1);
            const payment = await api<{ status: string; net_amount: number }>(
              "GET",
              `/payment/${renewalSessions[0]!.id}`,
              { key: biz.secretKey },
            );
            expect(payment.body.status).toBe("succeeded");
            const signupNet = (
              await api<{ net_amount: number }>("GET", `/payment/${row.initialSessionId}`, {
                key: biz.secretKey,
              })
            ).body.net_amount;
            expect((await getBalances(testDb(), biz.business.id)).balance).toBe(
              signupNet + payment.body.net_amount,
            );
          },
        ),
        { numRuns: testHandle().kind === "postgres" ? 3 : 4 },
      );
    },
  );
});
