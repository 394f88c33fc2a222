import { describe, expect, it } from "vitest";
import type { CreatedBusiness } from "@/lib/businesses/create-business";
import type { Staff, StaffRole } from "@/lib/staff/current-staff";
import {
  advanceClock,
  pastFirstRenewal,
  readSubscription,
  runJobs,
  signUp,
  subscriptionBusiness,
  subscriptionOfSession,
  withLoopbackApi,
  withSubscriptionProviders,
} from "@/lib/subscriptions/testing/subscription-fixtures";
import { testDb } from "@/test/helpers";
import { getSubscriptionDetail } from "./get-subscription-detail";
import { listSubscriptionsNewestFirst } from "@/lib/subscriptions/list-subscriptions";
import { cancelSubscriptionAs, resumeSubscriptionAs } from "./subscription-actions";
import { parseSubscriptionFilters } from "./subscription-filters";
import { resumeBlockedReason, subscriptionStatusLabel } from "./subscription-format";

withLoopbackApi();
withSubscriptionProviders();


/** A staff member of `biz` with `role` (support: any business, as admin). */
function staffOf(biz: CreatedBusiness, role: StaffRole): Staff {
  return {
    userId: `usr_${role}`,
    email: `${role}@example.com`,
    isAdmin: role === "admin",
    businessId: biz.business.id,
    role,
    memberships: [{ businessId: biz.business.id, businessName: biz.business.name, mode: "sandbox", role }],
  };
}

async function signedUp(biz: CreatedBusiness, overrides: Record<string, unknown> = {}) {
  const { sessionId } = await signUp(biz, { overrides });
  return (await subscriptionOfSession(sessionId)).id;
}

describe("listSubscriptionsNewestFirst", () => {
  it("pages newest first both ways, filters by status (canceling included) and customer, and shows only the business's own", async () => {
    const { biz } = await subscriptionBusiness();
    const { biz: other } = await subscriptionBusiness();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await signedUp(biz, { customer: i === 0 ? "cus_ada" : `cus_${i}` }));
    await signedUp(other, { customer: "cus_ada" });
    const newest = [...ids].reverse();

    const first = await listSubscriptionsNewestFirst(testDb(), biz.business.id, {}, 3);
    expect(first.data.map((s) => s.id)).toEqual(newest.slice(0, 3));
    expect(first.previous).toBeNull();
    expect(first.next).toBe(newest[2]);
    const second = await listSubscriptionsNewestFirst(testDb(), biz.business.id, { after: first.next! }, 3);
    expect(second.data.map((s) => s.id)).toEqual(newest.slice(3));
    expect(second.next).toBeNull();
    expect(second.previous).toBe(newest[3]);
    const back = await listSubscriptionsNewestFirst(testDb(), biz.business.id, { before: second.previous! }, 3);
    expect(back.data.map((s) => s.id)).toEqual(newest.slice(0, 3));
    expect(back.previous).toBeNull();
    expect(back.next).toBe(newest[2]);

    const manager = staffOf(biz, "manager");
    const scheduled = await cancelSubscriptionAs(testDb(), manager, { business: biz.business.id, subscription: ids[1], when: "period_end" });
    expect(scheduled.ok).toBe(true);
    const ended = await cancelSubscriptionAs(testDb(), manager, { business: biz.business.id, subscription: ids[2], when: "now" });
    expect(ended.ok).toBe(true);
    const status = async (s: "active" | "past_due" | "canceling" | "canceled") =>
      (await listSubscriptionsNewestFirst(testDb(), biz.business.id, { status: s })).data.map((x) => x.id).sort();
    expect(await status("canceling")).toEqual([ids[1]]);
    expect(await status("canceled")).toEqual([ids[2]]);
    expect(await status("active")).toEqual([ids[0], ids[1], ids[3]].sort());
    expect(await status("past_due")).toEqual([]);
    expect((await listSubscriptionsNewestFirst(testDb(), biz.business.id, { customer: "cus_ada" })).data.map((s) => s.id)).toEqual([ids[0]]);
    expect((await listSubscriptionsNewestFirst(testDb(), other.business.id, {})).data.every((s) => !ids.includes(s.id))).toBe(true);
  });

  it("parses the page's query: bad values are reported and dropped, never thrown", () => {
    expect(parseSubscriptionFilters({ status: "canceling", customer: " cus_1 " })).toEqual({
      ok: true,
      filters: { status: "canceling", customer: "cus_1" },
    });
    const bad = parseSubscriptionFilters({ status: "paused", customer: "a\u0000b", after: "cs_1", before: "" });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(Object.keys(bad.fields).sort()).toEqual(["after", "customer", "status"]);
    expect(bad.filters).toEqual({});
    expect(parseSubscriptionFilters({ after: "psub_1", before: "psub_2" }).ok).toBe(false);
  });
});

describe("getSubscriptionDetail", () => {
  it("lists the signup and each renewal with the payment it made, newest first; another business's id is not found", async () => {
    const { biz } = await subscriptionBusiness();
    const { biz: other } = await subscriptionBusiness();
    const { sessionId, orderId } = await signUp(biz);
    const id = (await subscriptionOfSession(sessionId)).id;
    await runJobs(biz.business.id);
    expect((await advanceClock(biz, pastFirstRenewal)).status).toBe(200);
    await expect.poll(async () => (await readSubscription(biz, id)).body.cycles_count, { timeout: 15_000 }).toBe(2);

    const detail = await getSubscriptionDetail(testDb(), biz.business.id, id);
    expect(detail.subscription).toEqual((await readSubscription(biz, id)).body);
    expect(detail.cycles.map((c) => [c.cycle, c.kind])).toEqual([
      [2, "renewal"],
      [1, "signup"],
    ]);
    expect(detail.cycles[1]).toMatchObject({ session_id: sessionId, order_id: orderId, payment: { status: "succeeded", amount: 2500 } });
    expect(detail.cycles[0]).toMatchObject({ invoice_status: "paid", order_id: `${orderId}-2`, payment: { status: "succeeded" } });
    expect(detail.cycles[0]!.session_id).toMatch(/^cs_/);

    await expect(getSubscriptionDetail(testDb(), other.business.id, id)).rejects.toMatchObject({ code: "subscription_not_found" });
    await expect(getSubscriptionDetail(testDb(), biz.business.id, "psub_nope")).rejects.toMatchObject({ code: "subscription_not_found" });
    await expect(getSubscriptionDetail(testDb(), biz.business.id, "not an id")).rejects.toMatchObject({ code: "subscription_not_found" });
  });
});

describe("cancel and resume from the dashboard", () => {
  it("records manager for the business's staff, through the provider, and resumes its own scheduling", async () => {
    const { biz } = await subscriptionBusiness();
    const id = await signedUp(biz);
    await runJobs(biz.business.id); // created at the (emulated) provider: cancel and resume call it
    const owner = staffOf(biz, "owner");
    const form = { business: biz.business.id, subscription: id };

    const scheduled = await cancelSubscriptionAs(testDb(), owner, { ...form, when: "period_end" });
    expect(scheduled).toMatchObject({ ok: true, data: { status: "active", cancel_at_period_end: true, cancel_requested_by: "manager", cancellation_reason: "requested_by_merchant" } });
    expect((await readSubscription(biz, id)).body).toMatchObject({ cancel_requested_by: "manager", cancel_at_period_end: true });

    const resumed = await resumeSubscriptionAs(testDb(), owner, form);
    expect(resumed).toMatchObject({ ok: true, data: { cancel_at_period_end: false, cancel_requested_by: null } });

    const now = await cancelSubscriptionAs(testDb(), staffOf(biz, "manager"), { ...form, when: "now" });
    expect(now).toMatchObject({ ok: true, message: "The subscription is canceled.", data: { status: "canceled", canceled_by: "manager" } });
    expect((await readSubscription(biz, id)).body).toMatchObject({ status: "canceled", canceled_by: "manager" });

    // The API's rules and messages: already canceled is a conflict.
    expect(await cancelSubscriptionAs(testDb(), owner, { ...form, when: "now" })).toEqual({
      ok: false,
      error: "subscription_update_failed",
      message: "The subscription is already canceled",
    });
    expect(await resumeSubscriptionAs(testDb(), owner, form)).toMatchObject({ ok: false, error: "subscription_update_failed" });
  });

  it("records admin when support acts; the business's staff then cannot resume, with the API's message; support can", async () => {
    const { biz } = await subscriptionBusiness();
    const id = await signedUp(biz);
    const form = { business: biz.business.id, subscription: id };
    const admin = staffOf(biz, "admin");
    expect(await cancelSubscriptionAs(testDb(), admin, { ...form, when: "period_end" })).toMatchObject({
      ok: true,
      data: { cancel_requested_by: "admin", cancellation_reason: "admin" },
    });
    expect(await resumeSubscriptionAs(testDb(), staffOf(biz, "owner"), form)).toEqual({
      ok: false,
      error: "resume_not_allowed",
      message: "This cancellation was scheduled by service support: only support can undo it",
    });
    expect((await readSubscription(biz, id)).body.cancel_requested_by).toBe("admin");
    expect(await resumeSubscriptionAs(testDb(), admin, form)).toMatchObject({ ok: true, data: { cancel_at_period_end: false } });
  });

  it("a cancellation the customer scheduled can be ended now but not resumed by the business", async () => {
    const { biz } = await subscriptionBusiness();
    const id = await signedUp(biz);
    const { cancelSubscription } = await import("@/lib/subscriptions/cancel-subscription");
    await cancelSubscription(testDb(), biz.business.id, id, { atPeriodEnd: true, by: "payer" });
    const manager = staffOf(biz, "manager");
    const form = { business: biz.business.id, subscription: id };
    expect(await resumeSubscriptionAs(testDb(), manager, form)).toEqual({
      ok: false,
      error: "resume_not_allowed",
      message: "The customer scheduled this cancellation: only the customer can undo it",
    });
    // Scheduling again keeps the first requester.
    expect(await cancelSubscriptionAs(testDb(), manager, { ...form, when: "period_end" })).toMatchObject({ ok: true, data: { cancel_requested_by: "payer" } });
    expect(await cancelSubscriptionAs(testDb(), manager, { ...form, when: "now" })).toMatchObject({
      ok: true,
      data: { status: "canceled", canceled_by: "manager", cancel_requested_by: "payer" },
    });
  });

  it("a manager of another business cannot act on this one's subscription, whatever the form says; bad input changes nothing", async () => {
    const { biz } = await subscriptionBusiness();
    const { biz: other } = await subscriptionBusiness();
    const id = await signedUp(biz);
    const intruder = staffOf(other, "manager");
    // Naming the victim's business: refused before anything is read.
    const named = await cancelSubscriptionAs(testDb(), intruder, { business: biz.business.id, subscription: id, when: "now" });
    expect(named).toMatchObject({ ok: false });
    expect(["forbidden", "business_changed"]).toContain((named as { error: string }).error);
    // Naming its own business: the subscription is not found there.
    expect(await cancelSubscriptionAs(testDb(), intruder, { business: other.business.id, subscription: id, when: "now" })).toEqual({
      ok: false,
      error: "subscription_not_found",
      message: "No such subscription",
    });
    expect(await resumeSubscriptionAs(testDb(), intruder, { business: other.business.id, subscription: id })).toMatchObject({
      ok: false,
      error: "subscription_not_found",
    });
    // A staff member whose dashboard shows another business (switched in another tab) is refused too.
    const switched: Staff = { ...staffOf(biz, "owner"), businessId: other.business.id };
    expect(await cancelSubscriptionAs(testDb(), switched, { business: biz.business.id, subscription: id, when: "now" })).toMatchObject({
      ok: false,
      error: "business_changed",
    });
    // Bad input: the interface's validation shape, per field.
    const bad = await cancelSubscriptionAs(testDb(), staffOf(biz, "manager"), { business: biz.business.id, subscription: "x", when: "later" });
    expect(bad).toMatchObject({ ok: false, error: "validation_failed" });
    expect(Object.keys((bad as { fields: Record<string, string[]> }).fields).sort()).toEqual(["subscription", "when"]);
    expect((await readSubscription(biz, id)).body).toMatchObject({ status: "active", cancel_at_period_end: false, canceled_by: null });
  });
});

describe("subscription wording", () => {
  it("reads canceling for a scheduled cancellation, and says before trying whose cancellation the business cannot resume", () => {
    expect(subscriptionStatusLabel({ status: "active", cancel_at_period_end: true }).label).toBe("Canceling");
    expect(subscriptionStatusLabel({ status: "past_due", cancel_at_period_end: false }).label).toBe("Past due");
    expect(subscriptionStatusLabel({ status: "canceled", cancel_at_period_end: true }).label).toBe("Canceled");
    expect(resumeBlockedReason({ cancel_requested_by: "payer" }, false)).toMatch(/only the customer/);
    expect(resumeBlockedReason({ cancel_requested_by: "admin" }, false)).toMatch(/service support: only support/);
    expect(resumeBlockedReason({ cancel_requested_by: "system" }, false)).toMatch(/^Kassa \(the system\) scheduled .*only service support/);
    for (const by of ["api", "manager", null] as const) expect(resumeBlockedReason({ cancel_requested_by: by }, false)).toBeNull();
    // Only the customer undoes the customer's: support is not offered it either.
    expect(resumeBlockedReason({ cancel_requested_by: "payer" }, true)).toMatch(/only the customer/);
    for (const by of ["api", "manager", "admin", "system", null] as const) expect(resumeBlockedReason({ cancel_requested_by: by }, true)).toBeNull();
  });
});
