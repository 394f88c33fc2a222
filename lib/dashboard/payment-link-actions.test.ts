import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents, paymentLinks } from "@/db/schema";
import { paymentsBusiness, withSandboxProviders } from "@/lib/payments/testing/payment-fixtures";
import { testDb } from "@/test/helpers";
import { listLinkPayments } from "./list-link-payments";
import { activatePaymentLinkAs, createPaymentLinkAs, deactivatePaymentLinkAs } from "./payment-link-actions";
import { staffFor } from "./testing-staff";

// The dashboard's payment-link writes: staffAction over the API's own checks and services.

withSandboxProviders();

const form = (business: string, fields: Record<string, string> = {}) => ({
  business,
  name: "Workshop ticket",
  price: "25.00",
  quantity: "1",
  interval: "",
  min_quantity: "",
  max_quantity: "",
  max_uses: "",
  expires_at: "",
  metadata: "",
  ...fields,
});

describe("payment link actions", () => {
  it("a manager creates a link; it is recorded as theirs", async () => {
    const biz = await paymentsBusiness();
    const staff = staffFor(biz.business.id, "manager", "manager-links@example.com");
    const made = await createPaymentLinkAs(testDb(), staff, form(biz.business.id, { max_quantity: "4", metadata: '{"campaign":"fair"}' }));
    expect(made.ok, JSON.stringify(made)).toBe(true);
    if (!made.ok) return;
    expect(made.data).toMatchObject({ amount: 2500, adjustable_quantity: { minimum: 1, maximum: 4 }, metadata: { campaign: "fair" } });
    const [audit] = await testDb().select().from(auditEvents).where(eq(auditEvents.targetId, made.data!.id));
    expect(audit).toMatchObject({ action: "payment_link.create", actorEmail: "manager-links@example.com" });
    expect(await listLinkPayments(testDb(), biz.business.id, made.data!.id)).toEqual([]);
  });

  it("bad input gets the API's field messages and makes nothing", async () => {
    const biz = await paymentsBusiness();
    const staff = staffFor(biz.business.id, "owner");
    const cheap = await createPaymentLinkAs(testDb(), staff, form(biz.business.id, { price: "0.50" }));
    expect(cheap).toMatchObject({ ok: false, error: "validation_failed" });
    // In dollars, not the API's cents (issue 41, item 24).
    if (!cheap.ok) expect(cheap.fields?.amount?.[0]).toBe("The amount must be at least $1.00");
    const plan = await createPaymentLinkAs(testDb(), staff, form(biz.business.id, { interval: "month", max_quantity: "3" }));
    expect(plan.ok).toBe(false);
    if (!plan.ok) expect(plan.fields?.adjustable_quantity?.[0]).toMatch(/plan/);
    const json = await createPaymentLinkAs(testDb(), staff, form(biz.business.id, { metadata: "{nope" }));
    expect(json.ok).toBe(false);
    if (!json.ok) expect(Object.keys(json.fields ?? {})).toEqual(["metadata"]);
    expect(await testDb().select().from(paymentLinks).where(eq(paymentLinks.businessId, biz.business.id))).toEqual([]);
  });

  it("deactivates and reactivates; another business's link is not found", async () => {
    const biz = await paymentsBusiness();
    const other = await paymentsBusiness();
    const staff = staffFor(biz.business.id, "owner");
    const made = await createPaymentLinkAs(testDb(), staff, form(biz.business.id));
    if (!made.ok) throw new Error(made.message);
    const off = await deactivatePaymentLinkAs(testDb(), staff, { business: biz.business.id, link: made.data!.id });
    expect(off).toMatchObject({ ok: true, data: { active: false } });
    const on = await activatePaymentLinkAs(testDb(), staff, { business: biz.business.id, link: made.data!.id });
    expect(on).toMatchObject({ ok: true, data: { active: true } });
    const stranger = staffFor(other.business.id, "owner");
    const theirs = await deactivatePaymentLinkAs(testDb(), stranger, { business: other.business.id, link: made.data!.id });
    expect(theirs).toMatchObject({ ok: false, error: "payment_link_not_found" });
  });
});
