import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll } from "vitest";
import { subscriptions, webhookEventTypes, type Subscription } from "@/db/schema";
import type { CreatedBusiness } from "@/lib/businesses/create-business";
import { defaultJobContext } from "@/lib/job-context";
import { runDueJobs } from "@/lib/jobs/run-due-jobs";
import { startSandboxProviders, type SandboxProviders } from "@/lib/providers/start-sandbox-providers";
import { sandboxStripeKey } from "@/lib/providers/stripe/sandbox-emulator";
import { startLoopbackReceiver, type LoopbackReceiver } from "@/lib/webhooks/testing/loopback-receiver";
import { api, createTestBusiness, sessionBody, testDb } from "@/test/helpers";
import { withLoopbackApi as withLoopbackApiOn } from "@/test/loopback-api";
import type { SubscriptionView } from "../subscription-view";

// Test support for subscription flows: Kassa's API on a loopback port (the emulator's webhooks
// reach the real handler), the emulator, webhook receivers, a signed-up subscription.

/** Kassa's API on a loopback port, with Kassa's own webhooks allowed to loopback receivers. */
export const withLoopbackApi = () => withLoopbackApiOn({ allowPrivateWebhookUrls: true });

export function withSubscriptionProviders(): { current: () => SandboxProviders } {
  let providers: SandboxProviders | undefined;
  beforeAll(async () => {
    providers = await startSandboxProviders({ webhookRetryDelaysMs: [] });
  });
  afterAll(async () => {
    await providers?.stop();
  });
  return {
    current: () => {
      if (!providers) throw new Error("sandbox providers not started");
      return providers;
    },
  };
}

const receivers: LoopbackReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

/** A sandbox business with every event kind enabled, delivering to a fresh loopback receiver. */
export async function subscriptionBusiness(): Promise<{ biz: CreatedBusiness; receiver: LoopbackReceiver }> {
  const receiver = await startLoopbackReceiver(undefined, { checkPayloads: true });
  receivers.push(receiver);
  const biz = await createTestBusiness({ webhookEvents: [...webhookEventTypes], webhookUrl: receiver.url });
  return { biz, receiver };
}

export const monthly = { interval: "month", interval_count: 1 };

/**
 * Seconds that take a monthly plan signed up now past its first renewal, whatever the month: a
 * month is at most 31 days, and Stripe leaves a renewal's invoice in draft for an hour before it
 * charges it. (`31 days` alone passed the renewal only in months of 30 days: from 2 December it
 * stops an hour short of the charge.)
 */
export const pastFirstRenewal = 31 * 86_400 + 2 * 3600;

/** POST /session with a subscription, paid with the sandbox helper; answers the session id. */
export async function signUp(
  biz: CreatedBusiness,
  options: {
    card?: string;
    subscription?: Record<string, unknown>;
    overrides?: Record<string, unknown>;
  } = {},
): Promise<{ sessionId: string; orderId: string; payment: Record<string, unknown> }> {
  const body = sessionBody({
    subscription: options.subscription ?? monthly,
    metadata: { plan: "pro" },
    ...options.overrides,
  });
  const created = await api<{ session_id: string }>("POST", "/session", { key: biz.secretKey, body });
  if (created.status !== 201) throw new Error(`session: ${created.status} ${JSON.stringify(created.body)}`);
  const paid = await api("POST", `/sandbox/sessions/${created.body.session_id}/pay`, {
    key: biz.secretKey,
    body: {
      card_number: options.card ?? "4242424242424242",
      customer_details: { name: "Ada", email: "ada@example.com" },
    },
  });
  return { sessionId: created.body.session_id, orderId: String(body.order_id), payment: paid.body };
}

export async function subscriptionOfSession(sessionId: string): Promise<Subscription> {
  const [row] = await testDb()
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.initialSessionId, sessionId));
  if (!row) throw new Error(`no subscription for ${sessionId}`);
  return row;
}

export const runJobs = (businessId: string) => runDueJobs(testDb(), { businessId, ctx: defaultJobContext() });

export async function readSubscription(biz: CreatedBusiness, id: string) {
  return api<SubscriptionView & { error?: string }>("GET", `/subscriptions/${id}`, { key: biz.secretKey });
}

export const advanceClock = (biz: CreatedBusiness, seconds: number) =>
  api("POST", "/sandbox/clock/advance", { key: biz.secretKey, body: { seconds } });

export const emulatorKey = (biz: CreatedBusiness) => sandboxStripeKey(biz.business.id);

/** Webhook bodies a receiver got, parsed. */
export function received(receiver: LoopbackReceiver): Record<string, unknown>[] {
  return receiver.requests.map((r) => JSON.parse(r.body.toString("utf8")) as Record<string, unknown>);
}
