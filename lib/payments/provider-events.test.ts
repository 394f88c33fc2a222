import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobs, paymentAttempts, providerEvents } from "@/db/schema";
import { newId } from "@/lib/ids";
import { defaultJobContext } from "@/lib/job-context";
import { runDueJobs } from "@/lib/jobs/run-due-jobs";
import { verifyLedgerAfterEach } from "@/lib/ledger/verify-after-each";
import { readProviderConfig } from "@/lib/providers/provider-config";
import { sandboxStripeKey } from "@/lib/providers/stripe/sandbox-emulator";
import type { StripeProviderConfig } from "@/lib/providers/stripe/stripe-config";
import { signatureHeader } from "@kassa/stripe-emulator";
import { sdkFor } from "@kassa/stripe-emulator/testing";
import { api, createTestBusiness, testDb } from "@/test/helpers";
import { withLoopbackApi } from "@/test/loopback-api";
import { paySession } from "./pay-session";
import {
  attemptsOf,
  balanceOf,
  eventBodies,
  eventTypes,
  newSession,
  paymentRow,
  paymentsBusiness,
  readPayment,
  refundsOf,
  withSandboxProviders,
} from "./testing/payment-fixtures";

// Kassa's API on a loopback port, so the emulator's real webhook deliveries reach the real handler.
withLoopbackApi();

const providers = withSandboxProviders();
verifyLedgerAfterEach();

const emulator = () => providers.current().emulator;
const card = (number: string) => ({
  number,
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 2,
  cvc: "123",
});
const checkout = { ip: "203.0.113.10", userAgent: "test", via: "checkout" as const };
const runJobs = (businessId: string) => runDueJobs(testDb(), { businessId, ctx: defaultJobContext() });

/** A 3-D Secure payment whose challenge the payer completed at Stripe, and nobody told Kassa yet. */
async function authenticatedElsewhere(biz: Awaited<ReturnType<typeof paymentsBusiness>>) {
  const { session_id } = await newSession(biz);
  const started = await paySession(
    testDb(),
    session_id,
    { paymentMethodId: "stripe_credit", card: card("4000002760003184") },
    checkout,
  );
  expect(started.next?.type).toBe("authenticate");
  const [attempt] = await attemptsOf(session_id);
  const key = sandboxStripeKey(biz.business.id);
  emulator().authenticatePaymentIntent(key, attempt!.providerPaymentId!, "succeed");
  const event = emulator()
    .events(key, "payment_intent.succeeded")
    .find((e) => (e.data.object as { id: string }).id === attempt!.providerPaymentId)!;
  return {
    sessionId: session_id,
    intentId: attempt!.providerPaymentId!,
    payload: JSON.stringify(event, null, 2),
  };
}

/** A new session of the business paid by a card that succeeds; its id. */
async function paidByCard(biz: Awaited<ReturnType<typeof paymentsBusiness>>) {
  const { session_id } = await newSession(biz);
  await paySession(
    testDb(),
    session_id,
    { paymentMethodId: "stripe_credit", card: card("4242424242424242") },
    checkout,
  );
  return session_id;
}

async function endpointSecret(businessId: string) {
  return (await readProviderConfig<StripeProviderConfig>(testDb(), businessId, "stripe"))!.config
    .webhookSecret!;
}

const post = (payload: string, signature?: string) =>
  api("POST", "/payment/stripe/webhook", {
    rawBody: payload,
    headers: signature ? { "stripe-signature": signature } : {},
  });

describe("POST /payment/stripe/webhook", () => {
  it("refuses an event whose signature does not verify with the business's secret (400)", async () => {
    const biz = await paymentsBusiness();
    const other = await paymentsBusiness();
    await newSession(other).then((s) =>
      api("POST", `/sandbox/sessions/${s.session_id}/pay`, { key: other.secretKey, body: {} }),
    );
    const { payload } = await authenticatedElsewhere(biz);
    await emulator().idle(); // the emulator's own (valid) deliveries are in
    const stored = async () =>
      (await testDb().select().from(providerEvents).where(eq(providerEvents.businessId, biz.business.id)))
        .length;
    const before = await stored();
    const now = Math.floor(Date.now() / 1000);
    for (const signature of [
      undefined,
      "t=1,v1=00",
      signatureHeader(payload, "whsec_wrong", now),
      signatureHeader(payload, await endpointSecret(other.business.id), now),
      signatureHeader(payload, await endpointSecret(biz.business.id), now - 3600),
      signatureHeader(`${payload} `, await endpointSecret(biz.business.id), now),
    ]) {
      const res = await post(payload, signature);
      expect(res.status, String(signature)).toBe(400);
      expect(res.body).toMatchObject({ error: expect.stringMatching(/invalid_signature|invalid_payload/) });
    }
    expect(await stored()).toBe(before);
  });

  it("processes a verified event once, even when delivered twice", async () => {
    const biz = await paymentsBusiness();
    // The emulator itself must not deliver first: this test is the only sender.
    const warmUp = await newSession(biz);
    await api("POST", `/sandbox/sessions/${warmUp.session_id}/pay`, { key: biz.secretKey, body: {} });
    await emulator().idle();
    const config = (await readProviderConfig<StripeProviderConfig>(testDb(), biz.business.id, "stripe"))!
      .config;
    await sdkFor(emulator(), sandboxStripeKey(biz.business.id)).webhookEndpoints.update(
      config.webhookEndpointId!,
      {
        disabled: true,
      },
    );
    const { sessionId, payload } = await authenticatedElsewhere(biz);
    const secret = await endpointSecret(biz.business.id);
    const first = await post(payload, signatureHeader(payload, secret, Math.floor(Date.now() / 1000)));
    const second = await post(payload, signatureHeader(payload, secret, Math.floor(Date.now() / 1000)));
    expect(first.body).toEqual({ received: true, status: "accepted" });
    expect(second.body).toEqual({ received: true, status: "duplicate" });

    await emulator().idle();
    await runJobs(biz.business.id);
    expect(await readPayment(biz, sessionId)).toMatchObject({ status: "succeeded", net_amount: 2397 });
    expect(await eventTypes(sessionId)).toEqual(["succeeded"]);
    expect(await balanceOf(biz)).toBe(2 * 2397);
    const [event] = await testDb()
      .select()
      .from(providerEvents)
      .where(
        and(
          eq(providerEvents.businessId, biz.business.id),
          eq(providerEvents.type, "payment_intent.succeeded"),
        ),
      );
    expect(event).toMatchObject({ status: "processed" });
    const eventJobs = await testDb()
      .select()
      .from(jobs)
      .where(and(eq(jobs.businessId, biz.business.id), eq(jobs.kind, "process_provider_event")));
    expect(eventJobs.every((j) => j.status === "done")).toBe(true);
  });

  it("receives the emulator's real deliveries: a completed challenge settles through the event alone", async () => {
    const biz = await paymentsBusiness();
    const { sessionId } = await authenticatedElsewhere(biz);
    await emulator().idle();
    const deliveries = emulator().deliveries(sandboxStripeKey(biz.business.id));
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.every((d) => d.ok)).toBe(true);
    await runJobs(biz.business.id);
    expect(await readPayment(biz, sessionId)).toMatchObject({ status: "succeeded" });
    expect(await eventTypes(sessionId)).toEqual(["succeeded"]);
  });

  it("records a refund made in the Stripe dashboard (charge.refunded)", async () => {
    const biz = await paymentsBusiness();
    const session_id = await paidByCard(biz);
    const payment = (await paymentRow(session_id))!;
    const stripe = sdkFor(emulator(), sandboxStripeKey(biz.business.id));
    await stripe.refunds.create({ payment_intent: payment.providerPaymentId!, amount: 500 });
    await emulator().idle();
    await runJobs(biz.business.id);
    expect((await refundsOf(session_id)).map((r) => [r.reason, r.status, r.amount, r.ledgerAmount])).toEqual([
      ["provider_initiated", "succeeded", 500, 479],
    ]);
    expect(await balanceOf(biz)).toBe(2397 - 479);
    expect(await eventTypes(session_id)).toEqual(["succeeded", "refunded"]);
    const [recorded] = await refundsOf(session_id);
    expect((await eventBodies(session_id))[1]).toMatchObject({
      type: "refunded",
      amount: 2500,
      refund: { id: recorded!.id, amount: 500, amount_refunded: 500 },
    });
  });

  it("stores a dispute event sent before Kassa knows its intent, however many other attempts are stuck", async () => {
    const biz = await paymentsBusiness();
    const pay = async () => (await attemptsOf(await paidByCard(biz)))[0]!;
    // Thirty other businesses whose Stripe attempts stopped at `started` a minute ago (a crash),
    // recorded before this business's own: first both in the table and in time.
    const stuck = await pay();
    const others = await Promise.all(Array.from({ length: 30 }, () => createTestBusiness()));
    const fakeIds = others.map(() => newId("paymentAttempt"));
    await testDb()
      .insert(paymentAttempts)
      .values(
        others.map((other, i) => ({
          ...stuck,
          id: fakeIds[i]!,
          businessId: other.business.id,
          status: "started" as const,
          providerPaymentId: null,
          updatedAt: new Date(Date.now() - 60_000).toISOString(),
        })),
      );
    // This business's attempt is being started right now: Stripe has not answered with the intent.
    const ours = await pay();
    await testDb()
      .update(paymentAttempts)
      .set({ status: "started", updatedAt: new Date().toISOString() })
      .where(eq(paymentAttempts.id, ours.id));
    try {
      const payload = JSON.stringify({
        id: `evt_${newId("paymentAttempt")}`,
        object: "event",
        type: "charge.dispute.created",
        data: {
          object: { id: "dp_unknown", object: "dispute", charge: "ch_unknown", payment_intent: "pi_unknown" },
        },
      });
      const secret = await endpointSecret(biz.business.id);
      const res = await post(payload, signatureHeader(payload, secret, Math.floor(Date.now() / 1000)));
      expect(res.body).toEqual({ received: true, status: "accepted" });
      const stored = await testDb()
        .select()
        .from(providerEvents)
        .where(
          and(
            eq(providerEvents.businessId, biz.business.id),
            eq(providerEvents.type, "charge.dispute.created"),
          ),
        );
      expect(stored).toHaveLength(1);
    } finally {
      await testDb().delete(paymentAttempts).where(inArray(paymentAttempts.id, fakeIds));
      await testDb()
        .update(paymentAttempts)
        .set({ status: ours.status })
        .where(eq(paymentAttempts.id, ours.id));
    }
  });

  it("acknowledges, and ignores, events about objects Kassa did not create", async () => {
    const res = await post(
      JSON.stringify({
        id: "evt_x",
        type: "payment_intent.succeeded",
        data: { object: { id: "pi_unknown" } },
      }),
      "t=1,v1=00",
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, status: "ignored" });
    expect((await post("not json", "t=1,v1=00")).status).toBe(400);
  });
});
