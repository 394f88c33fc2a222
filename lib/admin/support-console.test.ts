import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { payments, subscriptions, webhookEvents } from "@/db/schema";
import { staffFor } from "@/lib/dashboard/testing-staff";
import { newId } from "@/lib/ids";
import { helperPay, newSession, paymentsBusiness } from "@/lib/payments/testing/payment-fixtures";
import { resumeSubscription } from "@/lib/subscriptions/resume-subscription";
import {
  readSubscription,
  runJobs,
  signUp,
  subscriptionBusiness,
  subscriptionOfSession,
  withLoopbackApi,
  withSubscriptionProviders,
} from "@/lib/subscriptions/testing/subscription-fixtures";
import { api, createTestBusiness, testDb, uniqueName } from "@/test/helpers";
import { runSupportCommand, supportConsole } from "./support-console";
import { searchBusinesses } from "./support-queries";

withLoopbackApi();
withSubscriptionProviders();

const heldForReview = "4000000000009235";
const paymentStatus = async (sessionId: string) => (await testDb().select().from(payments).where(eq(payments.sessionId, sessionId)))[0]?.status;

describe("supportConsole (reads across businesses)", () => {
  it("is for service support only: owners and managers are refused before anything is read", async () => {
    const biz = await paymentsBusiness();
    for (const role of ["owner", "manager"] as const)
      expect(() => supportConsole(testDb(), staffFor(biz.business.id, role))).toThrow(
        expect.objectContaining({ code: "forbidden", message: "Only service support may use the support console" }),
      );
    // A member whose flag says admin but whose role does not is still not support: the flag decides.
    expect(() => supportConsole(testDb(), { ...staffFor(biz.business.id, "admin"), isAdmin: false })).toThrow(expect.objectContaining({ code: "forbidden" }));
    expect(supportConsole(testDb(), staffFor(biz.business.id, "admin"))).toHaveProperty("searchBusinesses");
  });

  it("finds businesses by part of the name or by id, newest first, a page at a time", async () => {
    const tag = uniqueName("Findme");
    const a = await paymentsBusiness({ name: `${tag} Books` });
    const b = await paymentsBusiness({ name: `${tag} bikes` });
    await paymentsBusiness();
    const support = supportConsole(testDb(), staffFor(a.business.id, "admin"));
    expect((await support.searchBusinesses({ q: tag.toUpperCase() })).data.map((x) => x.id)).toEqual([b.business.id, a.business.id]);
    expect((await support.searchBusinesses({ q: a.business.id })).data).toEqual([
      expect.objectContaining({ id: a.business.id, name: `${tag} Books`, mode: "sandbox", isDemo: false }),
    ]);
    expect((await support.searchBusinesses({ q: "%" })).data).toEqual([]);
    const first = await searchBusinesses(testDb(), { q: tag }, 1);
    expect(first).toMatchObject({ data: [{ id: b.business.id }], next: b.business.id });
    expect(await searchBusinesses(testDb(), { q: tag, after: first.next! }, 1)).toMatchObject({ data: [{ id: a.business.id }], next: null });
  });

  it("shows a business's webhook URL without its user:password (issue 41, item 24)", async () => {
    const biz = await createTestBusiness({ webhookUrl: "https://hook:s3cret@shop.example.com/hooks" });
    const found = await searchBusinesses(testDb(), { q: biz.business.id });
    expect(found.data).toEqual([expect.objectContaining({ webhookUrl: "https://shop.example.com/hooks" })]);
  });

  it("finds payments of any business by session id or order id, with their business", async () => {
    const a = await paymentsBusiness();
    const b = await paymentsBusiness();
    const order = uniqueName("order-support");
    const one = await newSession(a, { order_id: `${order}-a` });
    const two = await newSession(b, { order_id: `${order}-b` });
    await helperPay(b, two.session_id, { card_number: "4242424242424242" });
    const support = supportConsole(testDb(), staffFor(a.business.id, "admin"));

    const byOrder = await support.searchPayments({ q: order });
    expect(byOrder.data.map((r) => [r.business.id, r.payment.session_id, r.payment.status])).toEqual([
      [b.business.id, two.session_id, "succeeded"],
      [a.business.id, one.session_id, null],
    ]);
    expect((await support.searchPayments({ q: two.session_id })).data.map((r) => r.payment.order_id)).toEqual([`${order}-b`]);
    expect((await support.searchPayments({ q: `${order}-B` })).data).toHaveLength(1);
    expect((await support.searchPayments({ q: "no-such-order-anywhere" })).data).toEqual([]);
  });

  it("lists failed deliveries of every business (retrying ones on request)", async () => {
    const a = await paymentsBusiness();
    const b = await paymentsBusiness();
    const event = (businessId: string, status: "failed" | "pending" | "delivered", lastError: string | null) => ({
      id: newId("event"),
      businessId,
      type: "succeeded" as const,
      orderId: "o",
      body: "{}",
      status,
      attemptCount: 4,
      lastError,
    });
    const failedA = event(a.business.id, "failed", "HTTP 500");
    const failedB = event(b.business.id, "failed", "timeout");
    const retrying = event(b.business.id, "pending", "HTTP 502");
    await testDb().insert(webhookEvents).values([failedA, failedB, retrying, event(a.business.id, "delivered", null)]);
    const support = supportConsole(testDb(), staffFor(a.business.id, "admin"));

    const failed = await support.failedDeliveries({});
    const ids = failed.data.map((d) => d.id);
    expect(ids).toEqual(expect.arrayContaining([failedA.id, failedB.id]));
    expect(ids).not.toContain(retrying.id);
    expect(failed.data.find((d) => d.id === failedB.id)).toMatchObject({ business: { id: b.business.id }, status: "failed", lastError: "timeout", attempts: 4 });
    const withRetrying = await support.failedDeliveries({ includeRetrying: true, businessId: b.business.id });
    expect(withRetrying.data.map((d) => d.id).sort()).toEqual([failedB.id, retrying.id].sort());
  });
});

describe("runSupportCommand (writes across businesses)", () => {
  it("accepts and declines held payments of any business from the review queue; members are refused", async () => {
    const a = await paymentsBusiness();
    const b = await paymentsBusiness();
    const heldA = await newSession(a);
    const heldB = await newSession(b);
    await helperPay(a, heldA.session_id, { card_number: heldForReview });
    await helperPay(b, heldB.session_id, { card_number: heldForReview });
    const admin = staffFor(a.business.id, "admin");

    const queue = await supportConsole(testDb(), admin).reviewQueue({});
    const position = (sessionId: string) => queue.data.findIndex((r) => r.payment.session_id === sessionId);
    expect(position(heldA.session_id)).toBeGreaterThanOrEqual(0);
    expect(position(heldB.session_id)).toBeGreaterThan(position(heldA.session_id)); // longest waiting first
    expect(queue.data[position(heldB.session_id)]!.business.id).toBe(b.business.id);

    // An owner of the business itself may not use the console (the dashboard is their place).
    const asOwner = await runSupportCommand(testDb(), staffFor(a.business.id, "owner"), {
      intent: "review",
      business_id: a.business.id,
      session_id: heldA.session_id,
      decision: "accept",
    });
    expect(asOwner).toMatchObject({ ok: false, error: "forbidden" });
    expect(await paymentStatus(heldA.session_id)).toBe("pending_review");

    // The business named must be the payment's: another business's session is not found there.
    expect(
      await runSupportCommand(testDb(), admin, { intent: "review", business_id: a.business.id, session_id: heldB.session_id, decision: "accept" }),
    ).toMatchObject({ ok: false, error: "payment_not_found" });
    expect(await paymentStatus(heldB.session_id)).toBe("pending_review");

    expect(
      await runSupportCommand(testDb(), admin, { intent: "review", business_id: a.business.id, session_id: heldA.session_id, decision: "accept" }),
    ).toMatchObject({ ok: true, message: expect.stringContaining("Accepted") });
    expect(
      await runSupportCommand(testDb(), admin, { intent: "review", business_id: b.business.id, session_id: heldB.session_id, decision: "decline" }),
    ).toMatchObject({ ok: true, message: expect.stringContaining("refunded") });
    expect(await paymentStatus(heldA.session_id)).toBe("succeeded");
    expect(await paymentStatus(heldB.session_id)).toBe("declined");
    // Reviewed already: the API's 409.
    expect(
      await runSupportCommand(testDb(), admin, { intent: "review", business_id: a.business.id, session_id: heldA.session_id, decision: "decline" }),
    ).toMatchObject({ ok: false, error: "payment_not_in_review" });
    const after = (await supportConsole(testDb(), admin).reviewQueue({})).data.map((r) => r.payment.session_id);
    expect(after).not.toContain(heldA.session_id);
    expect(after).not.toContain(heldB.session_id);
  });

  it("cancels a subscription as admin: the business cannot resume it (API 403, dashboard 403), support can", async () => {
    const { biz } = await subscriptionBusiness();
    const signup = await signUp(biz);
    await runJobs(biz.business.id);
    const { id } = await subscriptionOfSession(signup.sessionId);
    const admin = staffFor(biz.business.id, "admin");
    const found = await supportConsole(testDb(), admin).searchSubscriptions({ q: signup.orderId });
    expect(found.data.map((r) => [r.business.id, r.subscription.id])).toEqual([[biz.business.id, id]]);

    const manager = staffFor(biz.business.id, "manager");
    const cancel = { intent: "cancel_subscription", business_id: biz.business.id, subscription_id: id, at_period_end: "true" };
    expect(await runSupportCommand(testDb(), manager, cancel)).toMatchObject({ ok: false, error: "forbidden" });
    expect((await readSubscription(biz, id)).body.cancel_at_period_end).toBe(false);

    expect(await runSupportCommand(testDb(), admin, cancel)).toMatchObject({ ok: true, message: expect.stringContaining("only support can resume") });
    expect((await readSubscription(biz, id)).body).toMatchObject({ status: "active", cancel_at_period_end: true, cancel_requested_by: "admin" });

    const merchantResume = await api("POST", `/subscriptions/${id}/resume`, { key: biz.secretKey });
    expect(merchantResume.status).toBe(403);
    expect(merchantResume.body).toMatchObject({ error: "resume_not_allowed", message: "This cancellation was scheduled by service support: only support can undo it" });
    await expect(resumeSubscription(testDb(), biz.business.id, id, { by: "manager" })).rejects.toMatchObject({ code: "resume_not_allowed" });
    expect((await readSubscription(biz, id)).body.cancel_requested_by).toBe("admin");

    expect(await runSupportCommand(testDb(), admin, { intent: "resume_subscription", business_id: biz.business.id, subscription_id: id })).toMatchObject({ ok: true });
    expect((await readSubscription(biz, id)).body).toMatchObject({ cancel_at_period_end: false, cancel_requested_by: null });

    expect(await runSupportCommand(testDb(), admin, { ...cancel, at_period_end: "false" })).toMatchObject({ ok: true, message: expect.stringContaining("canceled now") });
    expect((await readSubscription(biz, id)).body).toMatchObject({ status: "canceled", canceled_by: "admin" });
    expect(await runSupportCommand(testDb(), admin, { ...cancel, at_period_end: "false" })).toMatchObject({ ok: false, error: "subscription_update_failed" });
    // Another business named with this subscription: not found there.
    const other = await paymentsBusiness();
    expect(await runSupportCommand(testDb(), admin, { ...cancel, business_id: other.business.id })).toMatchObject({ ok: false, error: "subscription_not_found" });
    expect((await testDb().select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!.businessId).toBe(biz.business.id);
  });

  it("opens a business as support; refuses members, unknown businesses and malformed input", async () => {
    const biz = await paymentsBusiness();
    const admin = staffFor("biz_someother", "admin");
    expect(await runSupportCommand(testDb(), admin, { intent: "open_business", business_id: biz.business.id })).toMatchObject({
      ok: true,
      data: { openBusinessId: biz.business.id },
    });
    expect(await runSupportCommand(testDb(), staffFor(biz.business.id, "owner"), { intent: "open_business", business_id: biz.business.id })).toMatchObject({
      ok: false,
      error: "forbidden",
    });
    expect(await runSupportCommand(testDb(), admin, { intent: "open_business", business_id: "biz_NOPE" })).toMatchObject({ ok: false, error: "business_not_found" });
    for (const form of [
      {},
      { intent: "drop_tables" },
      { intent: "open_business", business_id: "../etc" },
      { intent: "cancel_subscription", business_id: biz.business.id, subscription_id: "psub_x", at_period_end: "soon" },
      { intent: "review", business_id: biz.business.id, session_id: "cs_x", decision: "maybe" },
      { intent: "review", business_id: biz.business.id, session_id: "pay_x", decision: "accept" },
    ])
      expect(await runSupportCommand(testDb(), admin, form), JSON.stringify(form)).toMatchObject({ ok: false, error: "validation_failed" });
  });
});
