import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobs, payments, webhookEvents, webhookEventTypes } from "@/db/schema";
import { testDb } from "@/test/helpers";
import { buildWebhookPayload, emitWebhookEvent } from "./emit-webhook-event";
import { cardPayment, createSessionRow, createWebhookBusiness } from "./testing/fixtures";

async function fixture(events?: string[]) {
  const biz = await createWebhookBusiness("https://hooks.example.com/kassa", events);
  const session = await createSessionRow(biz, { metadata: { plan: "pro" } });
  return { biz, session };
}

describe("webhook payloads", () => {
  it("incomplete: adds amount_remaining, with the redirect provider's method", async () => {
    const { biz, session } = await fixture();
    const payment = {
      ...cardPayment(session, {
        provider: "sandbox",
        paymentMethod: "bitcoin",
        fees: null,
        customerDetails: null,
        status: "pending",
      }),
    };
    const payload = buildWebhookPayload({
      business: biz.business,
      session,
      payment: payment as never,
      type: "incomplete",
      amountRemaining: 700,
    });
    expect(payload).toEqual({
      amount: 2500,
      currency: "USD",
      metadata: { plan: "pro", integration_session_id: session.id },
      type: "incomplete",
      provider: "sandbox",
      order_id: session.orderId,
      items: session.items,
      payment_method: "bitcoin",
      amount_remaining: 700,
    });
    expect(Object.keys(payload)).toEqual([
      "amount",
      "currency",
      "metadata",
      "type",
      "provider",
      "order_id",
      "items",
      "payment_method",
      "amount_remaining",
    ]);
  });

  it("subscription events carry the subscription, and failure_reason on payment failures", async () => {
    const { biz, session } = await fixture();
    const subscription = {
      id: "psub_01ABC",
      cycle: 3,
      currentPeriodEnd: "2026-03-01 00:00:00+00",
      managementUrl: "http://localhost:3000/manage/tok",
    };
    const failed = buildWebhookPayload({
      business: biz.business,
      session,
      payment: cardPayment(session, { status: "failed", fees: null }) as never,
      type: "subscription_payment_failed",
      subscription,
      failureReason: "authentication_required",
      orderId: `${session.orderId}-3`,
    });
    expect(failed).toMatchObject({
      type: "subscription_payment_failed",
      order_id: `${session.orderId}-3`,
      subscription: {
        id: "psub_01ABC",
        cycle: 3,
        current_period_end: "2026-03-01T00:00:00.000000Z",
        management_url: "http://localhost:3000/manage/tok",
      },
      failure_reason: "authentication_required",
    });
    expect(failed).not.toHaveProperty("fees");
    const canceled = buildWebhookPayload({
      business: biz.business,
      session,
      payment: cardPayment(session) as never,
      type: "subscription_canceled",
      subscription: { ...subscription, cycle: 1, currentPeriodEnd: new Date("2026-02-01T00:00:00Z") },
      failureReason: "ignored on this kind",
    });
    expect(canceled.subscription).toEqual({
      id: "psub_01ABC",
      cycle: 1,
      current_period_end: "2026-02-01T00:00:00.000000Z",
      management_url: "http://localhost:3000/manage/tok",
    });
    expect(canceled).not.toHaveProperty("failure_reason");
    expect(canceled).toMatchObject({ fees: 103, payment_method: "credit", provider: "stripe" });
  });

  it("a forced method names the provider before any payment; billing details drop empty fields", async () => {
    const { biz, session } = await fixture();
    expect(
      buildWebhookPayload({
        business: biz.business,
        session: { ...session, paymentMethodId: "sandbox_pix_br" },
        type: "expired",
      }).provider,
    ).toBe("sandbox");
    const payload = buildWebhookPayload({
      business: biz.business,
      session,
      payment: cardPayment(session, {
        customerDetails: { name: "", email: "a@b.co", phone: null, address: { country: "US", line1: null } },
      }) as never,
      type: "succeeded",
    });
    expect(payload.customer).toEqual({ email: "a@b.co", address: { country: "US" } });
  });

  it("writes the event and its delivery job in the caller's transaction, once per dedupe key", async () => {
    const { biz, session } = await fixture();
    const [payment] = await testDb().insert(payments).values(cardPayment(session)).returning();
    const input = {
      business: biz.business,
      session,
      payment,
      type: "declined" as const,
      dedupeKey: `declined:${payment!.id}`,
    };
    const event = await testDb().transaction((tx) => emitWebhookEvent(tx, input));
    expect(event).toMatchObject({
      type: "declined",
      status: "pending",
      paymentId: payment!.id,
      orderId: session.orderId,
    });
    expect(JSON.parse(event!.body)).toEqual(buildWebhookPayload(input));
    expect(await testDb().transaction((tx) => emitWebhookEvent(tx, input))).toBeNull();
    expect(
      await testDb().select().from(webhookEvents).where(eq(webhookEvents.businessId, biz.business.id)),
    ).toHaveLength(1);
    const queued = await testDb().select().from(jobs).where(eq(jobs.businessId, biz.business.id));
    // (the session's own expiry job, scheduled at its creation, is not this test's business)
    expect(queued.filter((j) => j.kind !== "expire_session").map((j) => [j.kind, j.payload])).toEqual([
      ["deliver_webhook", { eventId: event!.id }],
    ]);
  });

  it("only `succeeded` is sent by default", async () => {
    const biz = await createWebhookBusiness("https://hooks.example.com/kassa", undefined);
    const { createTestBusiness } = await import("@/test/helpers");
    const plain = await createTestBusiness({ webhookUrl: "https://hooks.example.com/kassa" });
    expect(plain.business.webhookEvents).toEqual(["succeeded"]);
    const session = await createSessionRow(plain);
    for (const type of [
      "pending_review",
      "declined",
      "refunded",
      "expired",
      "incomplete",
      "subscription_payment_failed",
      "subscription_canceled",
      "refunded_again",
      "incomplete_again",
      "dispute_opened",
      "dispute_closed",
    ] as const)
      expect(await emitWebhookEvent(testDb(), { business: plain.business, session, type })).toBeNull();
    expect(
      await emitWebhookEvent(testDb(), { business: plain.business, session, type: "succeeded" }),
    ).not.toBeNull();
    expect(biz.business.webhookEvents).toHaveLength(webhookEventTypes.length);
  });
});

describe("one event per order and kind (decision 0042)", () => {
  async function emitTwice(events: string[], type: "refunded" | "incomplete") {
    const { biz, session } = await fixture(events);
    const [payment] = await testDb().insert(payments).values(cardPayment(session)).returning();
    const emit = (n: number) =>
      testDb().transaction((tx) =>
        emitWebhookEvent(tx, {
          business: biz.business,
          session,
          payment,
          type,
          ...(type === "refunded"
            ? { refund: { id: `rfd_${n}`, amount: 500, amountRefunded: 500 * n } }
            : { amountRemaining: 2500 - 500 * n }),
        }),
      );
    const sent = [await emit(1), await emit(2), await emit(3)];
    return { session, sent };
  }

  it("a second refund of an order is `refunded_again`, with its refund object; `refunded` stays unique", async () => {
    const { session, sent } = await emitTwice(["succeeded", "refunded", "refunded_again"], "refunded");
    expect(sent.map((e) => e?.type)).toEqual(["refunded", "refunded_again", "refunded_again"]);
    expect(sent.map((e) => e?.orderId)).toEqual([session.orderId, session.orderId, session.orderId]);
    expect(JSON.parse(sent[2]!.body)).toMatchObject({
      type: "refunded_again",
      order_id: session.orderId,
      refund: { id: "rfd_3", amount: 500, amount_refunded: 1500 },
    });
  });

  it("a later underpayment is `incomplete_again` with what is still missing", async () => {
    const { sent } = await emitTwice(["incomplete", "incomplete_again"], "incomplete");
    expect(sent.map((e) => e?.type)).toEqual(["incomplete", "incomplete_again", "incomplete_again"]);
    expect(JSON.parse(sent[1]!.body)).toMatchObject({ type: "incomplete_again", amount_remaining: 1500 });
  });

  it("without the `_again` kind enabled, the repeats are not sent: never a second `refunded`", async () => {
    const { sent } = await emitTwice(["succeeded", "refunded"], "refunded");
    expect(sent.map((e) => e?.type ?? null)).toEqual(["refunded", null, null]);
  });
});
