import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { businesses, subscriptions, webhookEvents } from "@/db/schema";
import { sdkFor } from "@kassa/stripe-emulator/testing";
import { expectFieldErrors, isErrorMessage } from "@/test/api-assertions";
import { api, testDb } from "@/test/helpers";
import { cancelSubscription } from "./cancel-subscription";
import { managementToken, managementTokenDigest } from "./management-token";
import type { SubscriptionView } from "./subscription-view";
import {
  advanceClock,
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

type Biz = Awaited<ReturnType<typeof subscriptionBusiness>>["biz"];

async function subscribed(biz?: Biz, options: Parameters<typeof signUp>[1] = {}) {
  const business = biz ?? (await subscriptionBusiness()).biz;
  const signup = await signUp(business, options);
  await runJobs(business.business.id);
  const row = await subscriptionOfSession(signup.sessionId);
  return { biz: business, id: row.id, providerId: row.providerSubscriptionId!, row, ...signup };
}

const cancel = (biz: Biz, id: string, body?: unknown, rawBody?: string) =>
  api<SubscriptionView & { error?: string; message?: string }>("POST", `/subscriptions/${id}/cancel`, {
    key: biz.secretKey,
    body,
    rawBody,
  });
const resume = (biz: Biz, id: string) =>
  api<SubscriptionView & { error?: string; message?: string }>("POST", `/subscriptions/${id}/resume`, {
    key: biz.secretKey,
  });
const stripeSub = (biz: Biz, id: string) => sdkFor(emulator(), emulatorKey(biz)).subscriptions.retrieve(id);
const canceledEvents = async (id: string) =>
  (
    await testDb()
      .select({ type: webhookEvents.type })
      .from(webhookEvents)
      .where(eq(webhookEvents.subscriptionId, id))
  ).filter((e) => e.type === "subscription_canceled").length;

describe("GET /subscriptions/{id}", () => {
  it("answers the Subscription object with every field of the interface", async () => {
    const { biz, id, sessionId, orderId } = await subscribed();
    const res = await api<SubscriptionView>("GET", `/subscriptions/${id}`, { key: biz.secretKey });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        "id",
        "status",
        "amount",
        "unit_amount",
        "currency",
        "interval",
        "interval_count",
        "interval_label",
        "customer",
        "customer_email",
        "order_id",
        "items",
        "metadata",
        "payment_method",
        "provider",
        "provider_subscription_id",
        "cycles_count",
        "current_period_end",
        "cancel_at_period_end",
        "canceled_at",
        "canceled_by",
        "cancel_requested_by",
        "cancellation_reason",
        "initial_session_id",
        "management_url",
        "created_at",
      ].sort(),
    );
    expect(res.body).toMatchObject({
      id,
      initial_session_id: sessionId,
      order_id: orderId,
      customer: "cus_123",
    });
    expect(res.body.id).toMatch(/^psub_/);
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it("keeps only a digest of the management token, which is 256 bits and differs per subscription", async () => {
    const { biz, id, row } = await subscribed();
    const other = await subscribed(biz);
    const url = (await api<SubscriptionView>("GET", `/subscriptions/${id}`, { key: biz.secretKey })).body
      .management_url!;
    const token = url.split("/manage/")[1]!;
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(token).toBe(managementToken(id));
    expect(row.managementTokenDigest).toBe(managementTokenDigest(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(managementToken(other.id)).not.toBe(token);
  });

  it("404 subscription_not_found for unknown, malformed and another business's ids; 401 with a public key", async () => {
    const { biz, id } = await subscribed();
    const { biz: stranger } = await subscriptionBusiness();
    for (const path of [`/subscriptions/${id}`, `/subscriptions/psub_nope`, "/subscriptions/x%00y"]) {
      const res = await api("GET", path, { key: stranger.secretKey });
      expect(res.status, path).toBe(404);
      expect(res.body.error).toBe("subscription_not_found");
      expect(isErrorMessage(res.body)).toBe(true);
    }
    for (const [method, path] of [
      ["GET", `/subscriptions/${id}`],
      ["GET", "/subscriptions"],
      ["POST", `/subscriptions/${id}/cancel`],
      ["POST", `/subscriptions/${id}/resume`],
    ] as const) {
      const res = await api(method, path, { key: biz.publicKey });
      expect(res.status, path).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized" });
    }
    expect((await cancel(stranger, id)).status).toBe(404);
    expect((await resume(stranger, id)).status).toBe(404);
  });
});

describe("GET /subscriptions", () => {
  it("filters by status (canceling included) and customer, pages with limit and starting_after", async () => {
    const { biz } = await subscriptionBusiness();
    const a = await subscribed(biz);
    const b = await subscribed(biz, { overrides: { customer: "cus_other" } });
    const c = await subscribed(biz);
    await cancel(biz, b.id);
    await cancel(biz, c.id, { at_period_end: false });
    const list = (query: string) =>
      api<{ data: SubscriptionView[]; has_more: boolean }>("GET", `/subscriptions${query}`, {
        key: biz.secretKey,
      });
    const ids = async (query: string) => (await list(query)).body.data.map((s) => s.id);
    expect(await ids("")).toEqual([a.id, b.id, c.id]);
    expect(await ids("?status=active")).toEqual([a.id, b.id]);
    expect(await ids("?status=canceling")).toEqual([b.id]);
    expect(await ids("?status=canceled")).toEqual([c.id]);
    expect(await ids("?status=past_due")).toEqual([]);
    expect(await ids("?customer=cus_other")).toEqual([b.id]);
    const first = await list("?limit=2");
    expect(first.body.data.map((s) => s.id)).toEqual([a.id, b.id]);
    expect(first.body.has_more).toBe(true);
    const second = await list(`?limit=2&starting_after=${b.id}`);
    expect(second.body).toMatchObject({ has_more: false });
    expect(second.body.data.map((s) => s.id)).toEqual([c.id]);
    // Another business sees none of them.
    const { biz: other } = await subscriptionBusiness();
    expect((await api("GET", "/subscriptions", { key: other.secretKey })).body).toEqual({
      data: [],
      has_more: false,
    });
  });

  it("canceling includes a past-due subscription with a cancellation scheduled; limit defaults to 10", async () => {
    const { biz } = await subscriptionBusiness();
    const ids: string[] = [];
    for (let i = 0; i < 11; i++) ids.push((await subscriptionOfSession((await signUp(biz)).sessionId)).id);
    await testDb()
      .update(subscriptions)
      .set({
        status: "past_due",
        cancelAtPeriodEnd: true,
        cancelRequestedBy: "api",
        cancellationReason: "requested_by_merchant",
      })
      .where(eq(subscriptions.id, ids[3]!));
    const list = async (query: string) =>
      (
        await api<{ data: SubscriptionView[]; has_more: boolean }>("GET", `/subscriptions${query}`, {
          key: biz.secretKey,
        })
      ).body;
    expect((await list("?status=canceling")).data.map((s) => s.id)).toEqual([ids[3]]);
    expect((await list("?status=past_due")).data.map((s) => s.id)).toEqual([ids[3]]);
    const page = await list("");
    expect(page.data.map((s) => s.id)).toEqual(ids.slice(0, 10));
    expect(page.has_more).toBe(true);
  });

  it("answers 400 naming an invalid parameter", async () => {
    const { biz } = await subscriptionBusiness();
    for (const [query, field] of [
      ["?status=paused", "status"],
      ["?limit=0", "limit"],
      ["?limit=101", "limit"],
      ["?limit=ten", "limit"],
      ["?starting_after=cs_123", "starting_after"],
    ] as const)
      expectFieldErrors(await api("GET", `/subscriptions${query}`, { key: biz.secretKey }), [field]);
  });
});

describe("POST /subscriptions/{id}/cancel", () => {
  it('at_period_end omitted, null, "" or true schedules: active, cancel_requested_by api, no event, scheduled at Stripe', async () => {
    const { biz } = await subscriptionBusiness();
    for (const [body, raw] of [
      [undefined, undefined],
      [undefined, ""],
      [{}, undefined],
      [{ at_period_end: null }, undefined],
      [{ at_period_end: "" }, undefined],
      [{ at_period_end: true }, undefined],
    ] as const) {
      const { id, providerId } = await subscribed(biz);
      const res = await cancel(biz, id, body, raw);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body).toMatchObject({
        status: "active",
        cancel_at_period_end: true,
        cancel_requested_by: "api",
        cancellation_reason: "requested_by_merchant",
        canceled_at: null,
        canceled_by: null,
      });
      expect((await stripeSub(biz, providerId)).cancel_at_period_end).toBe(true);
      expect(await canceledEvents(id)).toBe(0);
    }
  });

  it("any other non-boolean at_period_end answers 400 {at_period_end: [...]} and changes nothing", async () => {
    const { biz, id } = await subscribed();
    for (const value of ["true", "false", 0, 1, "yes", [], {}])
      expectFieldErrors(await cancel(biz, id, { at_period_end: value }), ["at_period_end"]);
    const row = await subscriptionOfSession((await subscriptionRow(id)).initialSessionId);
    expect(row.cancelAtPeriodEnd).toBe(false);
  });

  it("scheduling again changes nothing and keeps the first requester (the customer's)", async () => {
    const { biz, id } = await subscribed();
    await cancelSubscription(testDb(), biz.business.id, id, { atPeriodEnd: true, by: "payer" });
    const before = await subscriptionRow(id);
    const res = await cancel(biz, id, { at_period_end: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      cancel_requested_by: "payer",
      cancellation_reason: "requested_by_customer",
    });
    expect((await subscriptionRow(id)).version).toBe(before.version);
  });

  it("at_period_end false ends it now: canceled by api, open invoices voided at Stripe, subscription_canceled at once", async () => {
    const { biz, id, providerId } = await subscribed();
    await cancelSubscription(testDb(), biz.business.id, id, { atPeriodEnd: true, by: "payer" });
    const res = await cancel(biz, id, { at_period_end: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "canceled",
      canceled_by: "api",
      cancel_requested_by: "payer",
      cancellation_reason: "requested_by_merchant",
    });
    expect(res.body.canceled_at).not.toBeNull();
    expect((await stripeSub(biz, providerId)).status).toBe("canceled");
    expect(await canceledEvents(id)).toBe(1);
    // Stripe's own deleted event changes nothing more.
    await emulator().idle();
    await runJobs(biz.business.id);
    expect(await canceledEvents(id)).toBe(1);
    expect((await subscriptionRow(id)).canceledBy).toBe("api");
  });

  it("at_period_end false with nothing scheduled: canceled by api, cancel_requested_by stays null", async () => {
    const { biz, id } = await subscribed();
    const res = await cancel(biz, id, { at_period_end: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "canceled",
      canceled_by: "api",
      cancel_requested_by: null,
      cancellation_reason: "requested_by_merchant",
    });
    expect(res.body.canceled_at).not.toBeNull();
    expect(await canceledEvents(id)).toBe(1);
  });

  it("a cancellation support or the system scheduled: true keeps it (200), false ends it now, requester kept", async () => {
    const { biz } = await subscriptionBusiness();
    for (const by of ["admin", "system"] as const) {
      const { id } = await subscribed(biz);
      await testDb()
        .update(subscriptions)
        .set({
          cancelAtPeriodEnd: true,
          cancelRequestedBy: by,
          cancellationReason: by === "admin" ? "admin" : "x",
        })
        .where(eq(subscriptions.id, id));
      const again = await cancel(biz, id, { at_period_end: true });
      expect(again.status, by).toBe(200);
      expect(again.body).toMatchObject({
        status: "active",
        cancel_at_period_end: true,
        cancel_requested_by: by,
      });
      const now = await cancel(biz, id, { at_period_end: false });
      expect(now.status, by).toBe(200);
      expect(now.body).toMatchObject({ status: "canceled", canceled_by: "api", cancel_requested_by: by });
    }
  });

  it("a past-due subscription can be scheduled, not resumed (from active only), then ended now: invoice voided, no refund, canceled event", async () => {
    const { biz, id, providerId, sessionId } = await subscribed(undefined, { card: "4000000000000341" });
    const end = Date.parse(
      (await api<SubscriptionView>("GET", `/subscriptions/${id}`, { key: biz.secretKey })).body
        .current_period_end!,
    );
    const [business] = await testDb().select().from(businesses).where(eq(businesses.id, biz.business.id));
    await advanceClock(biz, Math.ceil((end - Date.now() - business!.clockOffsetMs) / 1000) + 7200);
    const stripe = sdkFor(emulator(), emulatorKey(biz));
    const open = await stripe.invoices.list({ subscription: providerId, status: "open" });
    expect(open.data).toHaveLength(1);
    expect(
      (await api<SubscriptionView>("GET", `/subscriptions/${id}`, { key: biz.secretKey })).body.status,
    ).toBe("past_due");
    const scheduled = await cancel(biz, id);
    expect(scheduled.status).toBe(200);
    expect(scheduled.body).toMatchObject({
      status: "past_due",
      cancel_at_period_end: true,
      cancel_requested_by: "api",
    });
    expect(await canceledEvents(id)).toBe(0);
    // The interface's resume is a transition from `active, scheduled` only: refused, nothing changes.
    const resumed = await resume(biz, id);
    expect(resumed.status).toBe(409);
    expect(resumed.body.error).toBe("subscription_update_failed");
    expect(await subscriptionRow(id)).toMatchObject({
      status: "past_due",
      cancelAtPeriodEnd: true,
      cancelRequestedBy: "api",
    });
    expect((await stripeSub(biz, providerId)).cancel_at_period_end).toBe(true);
    const res = await cancel(biz, id, { at_period_end: false });
    expect(res.body).toMatchObject({ status: "canceled", canceled_by: "api", cancel_requested_by: "api" });
    expect(res.body.canceled_at).not.toBeNull();
    expect(await canceledEvents(id)).toBe(1);
    expect((await stripe.invoices.retrieve(open.data[0]!.id!)).status).toBe("void");
    expect((await api("GET", `/payment/${sessionId}`, { key: biz.secretKey })).body.status).toBe("succeeded");
  });

  it("on a canceled subscription answers 409 subscription_update_failed, both ways", async () => {
    const { biz, id } = await subscribed();
    expect((await cancel(biz, id, { at_period_end: false })).status).toBe(200);
    for (const body of [{ at_period_end: false }, { at_period_end: true }]) {
      const res = await cancel(biz, id, body);
      expect(res.status).toBe(409);
      expect(res.body.error).toBe("subscription_update_failed");
      expect(isErrorMessage(res.body)).toBe(true);
    }
  });

  it("while another change is in flight answers 409 (retry)", async () => {
    const { biz, id } = await subscribed();
    await testDb()
      .update(subscriptions)
      .set({ pendingOp: "resume", pendingOpToken: "someone-else", pendingOpAt: new Date().toISOString() })
      .where(eq(subscriptions.id, id));
    const res = await cancel(biz, id);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("subscription_update_failed");
  });

  it("502 when Stripe refuses, 503 when it cannot be reached; nothing changes and a retry works", async () => {
    const { biz, id, providerId } = await subscribed();
    const key = emulatorKey(biz);
    emulator().setUnreachable(true, key);
    try {
      const res = await cancel(biz, id);
      expect(res.status).toBe(503);
      expect(res.body.error).toBe("subscription_update_failed");
      expect(isErrorMessage(res.body)).toBe(true);
    } finally {
      emulator().setUnreachable(false, key);
    }
    expect(await subscriptionRow(id)).toMatchObject({ cancelAtPeriodEnd: false, pendingOp: null });
    expect((await cancel(biz, id)).status).toBe(200);

    // Ended at Stripe behind Kassa's back (its event not processed yet): Stripe refuses the resume.
    await sdkFor(emulator(), key).subscriptions.cancel(providerId);
    const refused = await resume(biz, id);
    expect(refused.status).toBe(502);
    expect(refused.body.error).toBe("subscription_update_failed");
    expect(await subscriptionRow(id)).toMatchObject({ cancelAtPeriodEnd: true, pendingOp: null });
  });

  it("before the subscription exists at Stripe, applies here and the setup job carries it over", async () => {
    const { biz } = await subscriptionBusiness();
    const scheduledSignup = await signUp(biz);
    const scheduled = await subscriptionOfSession(scheduledSignup.sessionId);
    const endedSignup = await signUp(biz);
    const ended = await subscriptionOfSession(endedSignup.sessionId);
    expect((await cancel(biz, scheduled.id)).body).toMatchObject({
      cancel_at_period_end: true,
      provider_subscription_id: null,
    });
    expect((await cancel(biz, ended.id, { at_period_end: false })).body).toMatchObject({
      status: "canceled",
    });
    await runJobs(biz.business.id);
    const created = await subscriptionRow(scheduled.id);
    expect((await stripeSub(biz, created.providerSubscriptionId!)).cancel_at_period_end).toBe(true);
    expect(await subscriptionRow(ended.id)).toMatchObject({
      providerSubscriptionId: null,
      status: "canceled",
    });
  });
});

describe("POST /subscriptions/{id}/resume", () => {
  it("withdraws the business's own scheduled cancellation, here and at Stripe", async () => {
    const { biz, id, providerId } = await subscribed();
    await cancel(biz, id);
    const res = await resume(biz, id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "active",
      cancel_at_period_end: false,
      cancel_requested_by: null,
      cancellation_reason: null,
    });
    expect((await stripeSub(biz, providerId)).cancel_at_period_end).toBe(false);
    // Nothing scheduled: 200, unchanged.
    const again = await resume(biz, id);
    expect(again.status).toBe(200);
    expect(again.body.cancel_at_period_end).toBe(false);
  });

  it("403 when the customer, support or the system scheduled it; 409 when canceled", async () => {
    const { biz } = await subscriptionBusiness();
    for (const by of ["payer", "admin", "system"] as const) {
      const { id } = await subscribed(biz);
      await testDb()
        .update(subscriptions)
        .set({ cancelAtPeriodEnd: true, cancelRequestedBy: by, cancellationReason: "x" })
        .where(eq(subscriptions.id, id));
      const res = await resume(biz, id);
      expect(res.status, by).toBe(403);
      expect(isErrorMessage(res.body)).toBe(true);
      expect((await subscriptionRow(id)).cancelAtPeriodEnd).toBe(true);
      // Each names who scheduled it and who alone may undo it.
      expect(res.body.message, by).toBe(
        {
          payer: "The customer scheduled this cancellation: only the customer can undo it",
          admin: "This cancellation was scheduled by service support: only support can undo it",
          system: "Kassa (the system) scheduled this cancellation: only service support can undo it",
        }[by],
      );
    }
    const { id } = await subscribed(biz);
    await cancel(biz, id, { at_period_end: false });
    const res = await resume(biz, id);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("subscription_update_failed");
  });

  it("the customer may withdraw only their own; the manager any the business side scheduled", async () => {
    const { biz, id } = await subscribed();
    const { resumeSubscription } = await import("./resume-subscription");
    await cancel(biz, id);
    await expect(resumeSubscription(testDb(), biz.business.id, id, { by: "payer" })).rejects.toMatchObject({
      code: "resume_not_allowed",
    });
    expect(
      (await resumeSubscription(testDb(), biz.business.id, id, { by: "manager" })).cancelAtPeriodEnd,
    ).toBe(false);
    await cancelSubscription(testDb(), biz.business.id, id, { atPeriodEnd: true, by: "payer" });
    expect((await resumeSubscription(testDb(), biz.business.id, id, { by: "payer" })).cancelAtPeriodEnd).toBe(
      false,
    );
    await expect(
      cancelSubscription(testDb(), biz.business.id, id, { atPeriodEnd: false, by: "payer" }),
    ).rejects.toMatchObject({ code: "immediate_cancel_not_allowed" });
  });

  it("only the customer undoes the customer's cancellation: service support cannot; support undoes the system's", async () => {
    const { biz, id } = await subscribed();
    const { resumeSubscription } = await import("./resume-subscription");
    await cancelSubscription(testDb(), biz.business.id, id, { atPeriodEnd: true, by: "payer" });
    await expect(resumeSubscription(testDb(), biz.business.id, id, { by: "admin" })).rejects.toMatchObject({
      code: "resume_not_allowed",
      message: "The customer scheduled this cancellation: only the customer can undo it",
    });
    expect(await subscriptionRow(id)).toMatchObject({ cancelAtPeriodEnd: true, cancelRequestedBy: "payer" });
    await testDb()
      .update(subscriptions)
      .set({ cancelRequestedBy: "system", cancellationReason: "x" })
      .where(eq(subscriptions.id, id));
    await expect(resumeSubscription(testDb(), biz.business.id, id, { by: "payer" })).rejects.toMatchObject({
      code: "resume_not_allowed",
    });
    expect((await resumeSubscription(testDb(), biz.business.id, id, { by: "admin" })).cancelAtPeriodEnd).toBe(
      false,
    );
  });
});

async function subscriptionRow(id: string) {
  const [row] = await testDb().select().from(subscriptions).where(eq(subscriptions.id, id));
  return row!;
}

describe("rules the interface states, through the API", () => {
  it("items: the signup session's, with quantity and price, not only names", async () => {
    const items = [
      { name: "Seat", quantity: 3, price: 1200 },
      { name: "Support", quantity: 1, price: 400 },
    ];
    const { biz, id } = await subscribed(undefined, { overrides: { amount: 4000, items } });
    const res = await api<SubscriptionView>("GET", `/subscriptions/${id}`, { key: biz.secretKey });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual(items);
    expect(res.body.amount).toBe(4000);
  });

  it("a plan every 3 months: interval fields, `every 3 months`, USD, cycles_count 1, nothing scheduled", async () => {
    const { biz, id } = await subscribed(undefined, {
      subscription: { interval: "month", interval_count: 3 },
    });
    const res = await api<SubscriptionView>("GET", `/subscriptions/${id}`, { key: biz.secretKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "active",
      interval: "month",
      interval_count: 3,
      interval_label: "every 3 months",
      currency: "USD",
      cycles_count: 1,
      payment_method: "credit",
      cancel_at_period_end: false,
      canceled_at: null,
      canceled_by: null,
      cancel_requested_by: null,
      cancellation_reason: null,
    });
    // interval_count intervals between two charges: the next one about 3 months away.
    const days = (Date.parse(res.body.current_period_end!) - Date.parse(res.body.created_at)) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(89);
    expect(days).toBeLessThanOrEqual(93);
  });

  it("cancel and resume of another business's subscription: 404 subscription_not_found, nothing changes", async () => {
    const { biz, id } = await subscribed();
    const { biz: stranger } = await subscriptionBusiness();
    for (const res of [
      await cancel(stranger, id, { at_period_end: false }),
      await cancel(stranger, id),
      await resume(stranger, id),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("subscription_not_found");
      expect(isErrorMessage(res.body)).toBe(true);
    }
    expect(await subscriptionRow(id)).toMatchObject({ status: "active", cancelAtPeriodEnd: false });
    expect((await cancel(biz, "psub_nope")).body.error).toBe("subscription_not_found");
  });

  it("resume undoes a cancellation the dashboard (manager) scheduled", async () => {
    const { biz, id } = await subscribed();
    await cancelSubscription(testDb(), biz.business.id, id, { atPeriodEnd: true, by: "manager" });
    expect(await subscriptionRow(id)).toMatchObject({
      cancelAtPeriodEnd: true,
      cancelRequestedBy: "manager",
    });
    const res = await resume(biz, id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "active",
      cancel_at_period_end: false,
      cancel_requested_by: null,
    });
  });

  it("customer_email: the e-mail passed at signup, else the one entered at checkout", async () => {
    const { biz } = await subscriptionBusiness();
    const entered = await subscribed(biz);
    const passed = await subscribed(biz, { overrides: { email: "payer@example.com" } });
    const read = async (id: string) =>
      (await api<SubscriptionView>("GET", `/subscriptions/${id}`, { key: biz.secretKey })).body;
    expect(await read(entered.id)).toMatchObject({ customer: "cus_123", customer_email: "ada@example.com" });
    expect(await read(passed.id)).toMatchObject({ customer: "cus_123", customer_email: "payer@example.com" });
  });

  it("cancellation_reason is an open string: an unknown value is passed on as it is", async () => {
    const { biz, id } = await subscribed();
    await testDb()
      .update(subscriptions)
      .set({ cancelAtPeriodEnd: true, cancelRequestedBy: null, cancellationReason: "a_reason_added_later" })
      .where(eq(subscriptions.id, id));
    // The api helper also checks the answer against the OpenAPI document: no enum refuses it.
    const res = await api<SubscriptionView>("GET", `/subscriptions/${id}`, { key: biz.secretKey });
    expect(res.status).toBe(200);
    expect(res.body.cancellation_reason).toBe("a_reason_added_later");
    const listed = await api<{ data: SubscriptionView[] }>("GET", "/subscriptions?status=canceling", {
      key: biz.secretKey,
    });
    expect(listed.body.data.find((s) => s.id === id)?.cancellation_reason).toBe("a_reason_added_later");
  });

  it("502 subscription_update_failed when the provider refuses a cancel; nothing changes", async () => {
    const { biz, id, providerId } = await subscribed();
    // Ended at Stripe behind Kassa's back (its event not processed yet): Stripe refuses to schedule it.
    await sdkFor(emulator(), emulatorKey(biz)).subscriptions.cancel(providerId);
    const refused = await cancel(biz, id);
    expect(refused.status).toBe(502);
    expect(refused.body.error).toBe("subscription_update_failed");
    expect(isErrorMessage(refused.body)).toBe(true);
    expect(await subscriptionRow(id)).toMatchObject({
      status: "active",
      cancelAtPeriodEnd: false,
      pendingOp: null,
    });
  });
});
