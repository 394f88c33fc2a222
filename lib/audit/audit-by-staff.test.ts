import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents } from "@/db/schema";
import { runSupportCommand } from "@/lib/admin/support-console";
import { createApiKeyAs } from "@/lib/dashboard/api-key-actions";
import { saveApprovalThresholdAs } from "@/lib/dashboard/payout-approval-actions";
import { runPayoutCommand } from "@/lib/dashboard/payouts-actions";
import { saveBrandingAs, saveFraudSettingsAs, saveGeneralSettingsAs } from "@/lib/dashboard/settings-actions";
import { staffFor } from "@/lib/dashboard/testing-staff";
import { pauseWebhookEndpointAs, resumeWebhookEndpointAs, updateWebhookEndpointAs } from "@/lib/dashboard/webhook-actions";
import { asUser, creditBusinessBalance } from "@/lib/payouts/payout-test-helpers";
import { createUser } from "@/lib/staff/create-user";
import type { Staff } from "@/lib/staff/current-staff";
import { loadStaff } from "@/lib/staff/load-staff";
import { createTestBusiness, testDb } from "@/test/helpers";
import { listAuditEvents } from "./list-audit-events";
import type { AuditAction } from "./record-audit";

// Each change staff make in the dashboard or the support console is in the audit log, authored by
// the staff member (never "merchant"), with their browser's IP and user agent (decision 0045).

const client = { ip: "192.0.2.44", userAgent: "Mozilla/5.0 (audit test)" };
const withClient = (staff: Staff): Staff => ({ ...staff, client });
const ok = (result: { ok: boolean } | null) => expect(result, JSON.stringify(result)).toMatchObject({ ok: true });

async function events(businessId: string, action?: AuditAction) {
  return (await listAuditEvents(testDb(), businessId, { action, limit: 100 })).data;
}

const fraudForm = (business: string) => ({
  business,
  enabled: "on",
  review_amount: "1,000.50",
  decline_amount: "",
  velocity_window_minutes: "30",
  max_attempts_per_card: "3",
  max_attempts_per_ip: "15",
  max_attempts_per_email: "8",
  country_mismatch: "review",
  elevated_risk: "review",
  highest_risk: "decline",
  screening_fee: "0.75",
});

type Case = [AuditAction, (staff: Staff, businessId: string) => Promise<unknown>, Record<string, unknown> | undefined];

const cases: Case[] = [
  [
    "business.settings_update",
    async (staff, business) => ok(await saveGeneralSettingsAs(testDb(), staff, { business, name: "Acme Coffee", return_url: "", fee_payer: "customer" })),
    { name: { to: "Acme Coffee" }, passFeesToCustomer: { from: false, to: true } },
  ],
  ["business.fraud_thresholds_update", async (staff, business) => ok(await saveFraudSettingsAs(testDb(), staff, fraudForm(business))), { screeningFeeCents: { to: 75 } }],
  ["business.branding_update", async (staff, business) => ok(await saveBrandingAs(testDb(), staff, { business, accent_color: "#1a7f5a" })), { color: { from: null, to: "#1a7f5a" } }],
  [
    "business.payouts_switch",
    async (staff, business) => ok(await runPayoutCommand(testDb(), staff, { business: business, intent: "set_enabled", enabled: "true" })),
    { payouts_enabled: { from: false, to: true } },
  ],
  ["api_key.create", async (staff, business) => ok(await createApiKeyAs(testDb(), staff, { business, kind: "secret", name: "CI" })), { name: { to: "CI" } }],
  [
    "webhook_endpoint.update",
    async (staff, business) => ok(await updateWebhookEndpointAs(testDb(), staff, { business, url: "https://shop.example/hooks", events: ["succeeded"] })),
    { url: { from: null, to: "https://shop.example/hooks" } },
  ],
  ["webhook_endpoint.pause", async (staff, business) => ok(await pauseWebhookEndpointAs(testDb(), staff, { business })), { state: { from: "active", to: "paused" } }],
  [
    "webhook_endpoint.resume",
    async (staff, business) => {
      ok(await pauseWebhookEndpointAs(testDb(), staff, { business }));
      ok(await resumeWebhookEndpointAs(testDb(), staff, { business, held: "keep-failed" }));
    },
    { state: { from: "paused", to: "active" } },
  ],
];

describe("the audit log records each change staff make, as themselves", () => {
  it.each(cases)("%s", async (action, run, changes) => {
    const { business } = await createTestBusiness();
    const owner = withClient(staffFor(business.id, "owner", "olga@example.com"));
    await run(owner, business.id);
    const [event] = await events(business.id, action);
    expect(event).toMatchObject({ action, actor: { type: "user", email: "olga@example.com" }, ip: client.ip, user_agent: client.userAgent });
    if (changes) expect(event!.changes).toMatchObject(changes);
  });

  it("the four-eyes threshold and a request for approval are recorded, under the one who asked", async () => {
    const { business } = await createTestBusiness({ payoutsEnabled: true });
    await creditBusinessBalance(business.id, 100_000);
    const owner = withClient(staffFor(business.id, "owner", "olga@example.com"));
    // The request names its staff member (a user row): a real one.
    const { userId } = await createUser(testDb(), { email: "mallory@example.com", password: "a staff password", businessId: business.id, role: "manager" });
    const manager = withClient((await loadStaff(testDb(), { userId }, business.id))!);
    ok(await saveApprovalThresholdAs(testDb(), owner, { business: business.id, threshold: "50" }));
    const run = (form: Record<string, unknown>) => runPayoutCommand(testDb(), manager, { business: business.id, ...form });
    ok(await run({ intent: "transfer", amount: "400" }));
    ok(await run({ intent: "allocate", email: "pat@example.com", amount: "60" }));
    const [threshold] = await events(business.id, "business.approval_threshold_update");
    expect(threshold).toMatchObject({
      actor: { type: "user", email: "olga@example.com" },
      changes: { approval_threshold_cents: { from: null, to: 5000 } },
    });
    const [request] = await events(business.id, "payout_approval.request");
    expect(request).toMatchObject({
      actor: { type: "user", email: "mallory@example.com" },
      target: { type: "payout_approval" },
      changes: { kind: { to: "allocate" }, amount: { to: 6000 }, email: { to: "pat@example.com" } },
    });
    expect(await events(business.id, "payout.allocate")).toEqual([]);
  });

  it("a manager who allocates payout funds to his own e-mail and approves his own withdrawal shows up as himself", async () => {
    const { business } = await createTestBusiness({ payoutsEnabled: true });
    await creditBusinessBalance(business.id, 100_000);
    const manager = withClient(staffFor(business.id, "manager", "mallory@example.com"));
    const run = (form: Record<string, unknown>) => runPayoutCommand(testDb(), manager, { business: business.id, ...form });
    ok(await run({ intent: "transfer", amount: "400" }));
    const allocated = await run({ intent: "allocate", email: "mallory@example.com", amount: "400" });
    ok(allocated);
    const hash = /hash, to reach their balance and withdraw: (\S+)$/.exec((allocated as { message: string }).message)![1]!;
    const withdrawal = await asUser<{ id: string }>(hash, "POST", "/payout/operations/withdrawals", { amount: 40_000, destination: "IBAN DE89 3704 0044 0532 0130 00" });
    expect(withdrawal.status).toBe(201);
    ok(await run({ intent: "complete", withdrawal_id: withdrawal.body.id }));

    const trail = await events(business.id);
    expect(trail.map((e) => [e.action, e.actor])).toEqual([
      ["payout_withdrawal.complete", { type: "user", email: "mallory@example.com" }],
      ["payout.allocate", { type: "user", email: "mallory@example.com" }],
      ["payout_balance.transfer", { type: "user", email: "mallory@example.com" }],
    ]);
    expect(trail[1]!.changes).toMatchObject({ email: { to: "mallory@example.com" }, amount: { to: 40_000 } });
    expect(trail[0]!.target).toEqual({ type: "payout_withdrawal", id: withdrawal.body.id });
  });

  it("support opening a business is recorded in that business, as the support member", async () => {
    const { business } = await createTestBusiness();
    const support = withClient(staffFor("biz_elsewhere", "admin", "sam@kassa.example"));
    expect(await runSupportCommand(testDb(), support, { intent: "open_business", business_id: business.id })).toMatchObject({ ok: true, data: { openBusinessId: business.id } });
    const [event] = await events(business.id, "support.open_business");
    expect(event).toMatchObject({ actor: { type: "user", email: "sam@kassa.example" }, target: { type: "business", id: business.id }, ip: client.ip });
  });

  it("a refused form records nothing (the change and its record are one transaction)", async () => {
    const { business } = await createTestBusiness();
    const manager = staffFor(business.id, "manager");
    expect(await saveGeneralSettingsAs(testDb(), manager, { business: business.id, name: "X", return_url: "", fee_payer: "customer" })).toMatchObject({ ok: false, error: "forbidden" });
    const owner = staffFor(business.id, "owner");
    expect(await saveGeneralSettingsAs(testDb(), owner, { business: business.id, name: "X", return_url: "ftp://x", fee_payer: "customer" })).toMatchObject({ ok: false });
    expect(await events(business.id)).toEqual([]);
  });
});

describe("audit_events is append-only", () => {
  it("refuses UPDATE and DELETE, as the ledger does", async () => {
    const { business } = await createTestBusiness();
    ok(await saveBrandingAs(testDb(), withClient(staffFor(business.id, "owner")), { business: business.id, accent_color: "#123456" }));
    const [event] = await events(business.id);
    await expect(testDb().update(auditEvents).set({ actorEmail: "someone-else@example.com" }).where(eq(auditEvents.id, event!.id))).rejects.toThrow();
    await expect(testDb().delete(auditEvents).where(eq(auditEvents.id, event!.id))).rejects.toThrow();
    await expect(testDb().execute(sql`UPDATE audit_events SET action = 'x' WHERE business_id = ${business.id}`)).rejects.toThrow();
    expect((await events(business.id))[0]).toEqual(event);
  });
});
